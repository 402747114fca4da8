#!/usr/bin/env node
// Draws the web app manifest's PNG icons from www/icons/favicon.svg with headless Chromium
// (the system one, through playwright-core): icon-192.png and icon-512.png (the favicon as is)
// and icon-maskable-512.png (the favicon's artwork inside the central safe zone, 80 % of the
// width, on a full-bleed square of its blue, so launchers may crop it to any shape).
// The PNGs are committed; run this again only when the favicon changes.
//
// Usage: node scripts/render-icons.mjs   (CHROMIUM_PATH overrides /usr/bin/chromium)

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const ICONS = join(dirname(fileURLToPath(import.meta.url)), "..", "www", "icons");
const svg = readFileSync(join(ICONS, "favicon.svg"), "utf8");
const dataUrl = `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
const background = /<rect[^>]*fill="(#[0-9a-fA-F]{6})"/.exec(svg)?.[1] ?? "#1d4ed8";

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--no-sandbox", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  for (const [name, size, maskable] of [
    ["icon-192.png", 192, false],
    ["icon-512.png", 512, false],
    ["icon-maskable-512.png", 512, true],
  ]) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const inner = maskable ? Math.round(size * 0.8) : size;
    await page.setContent(
      `<html><body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;` +
        `background:${maskable ? background : "transparent"}">` +
        `<img src="${dataUrl}" width="${inner}" height="${inner}"></body></html>`,
    );
    await page.waitForFunction(() => document.images[0].complete);
    await page.screenshot({ path: join(ICONS, name), omitBackground: !maskable });
    await page.close();
    console.log(`${name}: ${size}x${size}${maskable ? " (maskable)" : ""}`);
  }
} finally {
  await browser.close();
}
