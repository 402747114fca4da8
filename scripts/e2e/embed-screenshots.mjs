// Screenshots of embedded lessons in a plain course page, for people to look at: lesson 1 in
// English and lesson 4 in Chinese, each an <iframe> of the snippet that "Copy embed code" gives,
// sized by the height listener of docs/embed.md, at 1440 px and 375 px. Writes
// scripts/e2e/out/embed-1440.png and embed-375.png.
//
// Run: `node scripts/e2e/embed-screenshots.mjs` after `trunk build --release`.

import { buildDist, serveDist, launch, until, screenshot } from "./lib.mjs";
import { coursePage } from "./course-page.mjs";

if (process.env.UNROLL_E2E_SKIP_BUILD === undefined) process.env.UNROLL_E2E_SKIP_BUILD = "1";
buildDist();
const server = await serveDist();
// The course page, answered by this script at /course/ of the app's server.
const COURSE = new URL("course/", server.url).href;
const shots = [];

const frame = (query, title) =>
  `<iframe src="${new URL(`?${query}`, server.url).href.replaceAll("&", "&amp;")}" width="100%" height="720" style="border:0" title="${title}"></iframe>`;

const body = [
  `<main style="max-width: 860px; margin: 0 auto; padding: 24px 16px; font: 17px/1.6 Georgia, serif; color: #222">`,
  `<h1>Chapter 7: Recurrent networks</h1>`,
  `<p>Before the equations, play with the smallest recurrent network there is. Move the weights and watch every step of the chain.</p>`,
  frame("v=1&lesson=unroll&lang=en&embed=1", "Unrolling an RNN · Unroll"),
  `<p>The LSTM keeps a second state, the cell, on a conveyor belt. 下面是中文版的第 4 课。</p>`,
  frame("v=1&lesson=lstm&lang=zh&embed=1", "LSTM 的传送带 · Unroll"),
  `<p>End of the section.</p>`,
  `</main>`,
];

const b = await launch({ webgpu: false, serviceWorkers: "block" });
try {
  for (const width of [1440, 375]) {
    const page = await b.context.newPage();
    await page.setViewportSize({ width, height: 900 });
    await page.route(`${COURSE}**`, (route) =>
      route.fulfill({ contentType: "text/html; charset=utf-8", body: coursePage(body) }),
    );
    await page.goto(COURSE, { waitUntil: "load" });
    // Both iframes drawn and sized by their posted heights.
    await until(
      async () => {
        const frames = page.frames().filter((f) => f.url().includes("embed=1"));
        if (frames.length < 2) return false;
        for (const f of frames) if (!(await f.$(".embed-root .lx-page"))) return false;
        const heights = await page.$$eval("iframe", (fs) => fs.map((f) => f.style.height));
        return heights.every((h) => h.endsWith("px"));
      },
      60_000,
      "both lessons embedded and sized",
    );
    await page.waitForTimeout(1500);
    shots.push(await screenshot(page, `embed-${width}`, { fullPage: true }));
    await page.close();
  }
} finally {
  await b.close();
  await server.close();
}
console.log(shots.join("\n"));
