#!/usr/bin/env node
// A small static server for a built dist/ folder, with the headers a production host should send:
//
//   - pre-compressed copies: `X.br` / `X.gz` (written by scripts/postbuild.mjs) are sent for `X`
//     with `Content-Encoding: br|gzip` when the request's Accept-Encoding allows it, and every
//     response that has such a copy carries `Vary: Accept-Encoding`;
//   - caching: names that carry Trunk's content hash (`unroll-0123456789abcdef_bg.wasm`) are
//     `public, max-age=31536000, immutable`; everything else (index.html, sw.js, the manifest,
//     the names data, unhashed scripts) is `no-cache`, revalidated with an ETag;
//   - MIME types the browser insists on (application/wasm for streaming compilation,
//     text/javascript for module scripts and workers, application/manifest+json).
//
// Usage: node scripts/serve-dist.mjs [DIR] [--port N] [--host H]
//   DIR defaults to dist/; port 8090 (not trunk serve's 8080: a service worker registered by the
//   release build would otherwise answer for the development server); host 127.0.0.1.
// Also imported by the end-to-end tests (`serveDist`).

import { createServer } from "node:http";
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { dirname, extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".safetensors": "application/octet-stream",
};

/** Trunk's file hash: `-` and a 64-bit hash in hex (up to 16 digits, unpadded) before the extension. */
export const HASHED = /-[0-9a-f]{8,16}(_bg)?\.[A-Za-z0-9]+$/;

/** `br` or `gzip` (in that order of preference) when the Accept-Encoding header allows it. */
function accepted(header, coding) {
  return String(header || "")
    .split(",")
    .map((s) => s.trim().split(";"))
    .some(([name, ...params]) => name.trim().toLowerCase() === coding && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p)));
}

async function fileOrNull(path) {
  try {
    const s = await stat(path);
    return s.isFile() ? s : null;
  } catch {
    return null;
  }
}

/**
 * Creates (does not start) an HTTP server for `dir`.
 * Options: `block`: path prefixes answered with 404 (tests of the loading error);
 * `onRequest(req)`: called for each request (tests count what reaches the network);
 * `precompressed: false` ignores the .br/.gz copies (the load benchmark's uncompressed case);
 * `mount`: { "/path/prefix/": folder } answers that prefix from another folder, and
 * { "/path": file } that one path from another file (the end-to-end tests serve their small names
 * data set at the data's URL, and the service worker that lists it; nothing else uses it).
 */
export function createDistServer(dir, { block = [], onRequest, precompressed = true, mount = {} } = {}) {
  const root = resolve(dir);
  const mounts = Object.entries(mount).map(([prefix, folder]) => [prefix, resolve(folder)]);
  return createServer(async (req, res) => {
    try {
      onRequest?.(req);
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { allow: "GET, HEAD" }).end();
        return;
      }
      const path = decodeURIComponent(new URL("http://x" + req.url).pathname);
      if (block.some((p) => path.startsWith(p))) {
        res.writeHead(404).end("blocked by the test");
        return;
      }
      const [prefix, base] = mounts.find(([p]) => (p.endsWith("/") ? path.startsWith(p) : path === p)) ?? ["/", root];
      let file = prefix.endsWith("/") ? normalize(join(base, path.slice(prefix.length - 1))) : base;
      if (file !== base && !file.startsWith(base + sep)) {
        res.writeHead(403).end();
        return;
      }
      let info = await fileOrNull(file);
      if (!info) {
        const index = join(file, "index.html");
        info = await fileOrNull(index);
        if (info) file = index;
      }
      if (!info) {
        res.writeHead(404, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" }).end("not found");
        return;
      }
      const headers = {
        "content-type": MIME[extname(file)] || "application/octet-stream",
        "cache-control": HASHED.test(file) ? "public, max-age=31536000, immutable" : "no-cache",
        "x-content-type-options": "nosniff",
      };
      let body = file;
      const ae = req.headers["accept-encoding"];
      const br = precompressed && (await fileOrNull(file + ".br"));
      const gz = precompressed && (await fileOrNull(file + ".gz"));
      if (br || gz) headers.vary = "Accept-Encoding";
      if (br && accepted(ae, "br")) {
        body = file + ".br";
        headers["content-encoding"] = "br";
      } else if (gz && accepted(ae, "gzip")) {
        body = file + ".gz";
        headers["content-encoding"] = "gzip";
      }
      const bytes = await readFile(body);
      const etag = `"${createHash("sha1").update(bytes).digest("base64url")}"`;
      headers.etag = etag;
      if (req.headers["if-none-match"] === etag) {
        res.writeHead(304, headers).end();
        return;
      }
      headers["content-length"] = bytes.length;
      res.writeHead(200, headers);
      res.end(req.method === "HEAD" ? undefined : bytes);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end(String(e));
    }
  });
}

/**
 * Serves `dir` on 127.0.0.1 (a random port unless `port` is given).
 * Returns { url, port, close }.
 */
export async function serveDist(dir, { port = 0, host = "127.0.0.1", ...opts } = {}) {
  const server = createDistServer(dir, opts);
  await new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, host, ok);
  });
  const actual = server.address().port;
  return {
    url: `http://${host}:${actual}/`,
    port: actual,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections?.();
        server.close(() => ok());
      }),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let dir = join(dirname(fileURLToPath(import.meta.url)), "..", "dist");
  let port = 8090;
  let host = "127.0.0.1";
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--port") port = Number(args[++i]);
    else if (args[i] === "--host") host = args[++i];
    else if (args[i] === "-h" || args[i] === "--help") {
      console.log("usage: node scripts/serve-dist.mjs [DIR] [--port N] [--host H]");
      process.exit(0);
    } else dir = args[i];
  }
  if (!(await fileOrNull(join(dir, "index.html")))) {
    console.error(`${resolve(dir)}/index.html is missing: run \`trunk build --release\` first`);
    process.exit(1);
  }
  const s = await serveDist(dir, { port, host });
  console.log(`serving ${resolve(dir)} at ${s.url} (Ctrl-C stops it)`);
}
