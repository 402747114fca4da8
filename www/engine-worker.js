// The training engine's Web Worker. It runs the app's own wasm module: the page sends the glue's
// URL and the `WebAssembly.Module` it runs itself in its first message, so this worker only
// instantiates it and compiles nothing. It hands every later message to the Rust engine
// (core/src/engine/worker.rs), which answers with postcard-encoded batches.
//
// The page may start several of these workers for one sweep (its runs side by side), or as
// helpers of one run split across workers (each connected to the first worker by a
// MessageChannel the page sends it); each gets the same compiled module, and the page's choice
// of CPU kernels for it (`simd`: relaxed SIMD or `simd128`; the engine leaves the kernels it
// runs in `self.unrollCpuKernel`).
// `self.unrollSharesServed` counts the shares a helper answered (the end-to-end tests read it).
//
// `self.unrollWasmCompiles` counts the wasm compiles started in this worker, by any of the
// WebAssembly API's ways to compile bytes (the end-to-end tests read it: 0 while the page's
// module is reused).
self.unrollWasmCompiles = 0;
for (const name of ["compile", "compileStreaming", "instantiateStreaming", "instantiate"]) {
  const original = WebAssembly[name];
  WebAssembly[name] = function (source, ...rest) {
    if (!(source instanceof WebAssembly.Module)) self.unrollWasmCompiles += 1;
    return original.call(WebAssembly, source, ...rest);
  };
}
WebAssembly.Module = new Proxy(WebAssembly.Module, {
  construct(target, args, newTarget) {
    self.unrollWasmCompiles += 1;
    return Reflect.construct(target, args, newTarget);
  },
});
const pending = [];
let loading = false;
self.onmessage = async (event) => {
  if (loading) {
    // Commands sent while the module loads; the engine handles them first, in order.
    pending.push(event.data);
    return;
  }
  loading = true;
  const { glue, module, simd } = event.data;
  // The page's choice of CPU kernels for this module (www/boot.js), adopted by the engine.
  self.unrollWasmSimd = simd;
  try {
    const bindings = await import(glue);
    const exports = await bindings.default({ module_or_path: module });
    // Bytes of this worker's wasm memory (the benchmark and the end-to-end tests read it).
    self.unrollWasmBytes = () => exports.memory.buffer.byteLength;
    // Replaces this handler with the engine's own.
    bindings.engine_worker_start(pending);
  } catch (e) {
    self.postMessage({ fatal: String((e && e.message) || e) });
  }
};
