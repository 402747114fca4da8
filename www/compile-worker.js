// Compiles the app's wasm module off the page's main thread (www/boot.js starts it): its one
// message is the module's URL, or `{ url, body }` with the page's download of it as a
// transferred stream; it answers `{ module }` (a `WebAssembly.Module`, which the page
// instantiates and later posts to the engine's worker), or `{ error }` where it could not (an old
// browser, a failed fetch: the page then compiles the module itself, and shows its own error).
self.onmessage = async (event) => {
  if (typeof WebAssembly !== "object" || typeof WebAssembly.compileStreaming !== "function") {
    self.postMessage({ error: "WebAssembly.compileStreaming is not available in a worker" });
    return;
  }
  try {
    const response =
      typeof event.data === "string"
        ? await fetch(event.data)
        : new Response(event.data.body, { headers: { "content-type": "application/wasm" } });
    if (!response.ok) throw new Error(`${event.data.url ?? event.data}: HTTP ${response.status}`);
    self.postMessage({ module: await WebAssembly.compileStreaming(response) });
  } catch (e) {
    self.postMessage({ error: String((e && e.message) || e) });
  }
};
