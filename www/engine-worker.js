// The training engine's Web Worker. It loads the app's own wasm module (the same hashed files
// as the page, whose URLs the page sends in its first message) and hands every later message
// to the Rust engine (core/src/engine/worker.rs), which answers with postcard-encoded batches.
const pending = [];
let loading = false;
self.onmessage = async (event) => {
  if (loading) {
    // Commands sent while the module loads; the engine handles them first, in order.
    pending.push(event.data);
    return;
  }
  loading = true;
  const { glue, wasm } = event.data;
  try {
    const bindings = await import(glue);
    await bindings.default({ module_or_path: wasm });
    // Replaces this handler with the engine's own.
    bindings.engine_worker_start(pending);
  } catch (e) {
    self.postMessage({ fatal: String((e && e.message) || e) });
  }
};
