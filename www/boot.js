// Starts the app (Trunk.toml's `pattern_script` calls `unrollBoot` with the build's hashed file
// names). The wasm module is fetched by the page (at once) and compiled by a worker
// (compile-worker.js) as its bytes arrive, so the
// page's main thread never compiles it (nor deserialises the browser's cached code for it):
// the page only instantiates the compiled `WebAssembly.Module` it is posted. The engine's
// worker later gets the same `WebAssembly.Module` (src/shell/engine_client.rs) and compiles
// nothing either. Where a worker cannot start, the page compiles the module itself.
//
// <html data-wasm-compiled="worker|page"> records which one did (the end-to-end tests read it).
// As with Trunk's own loader: the wasm-bindgen exports are `window.wasmBindings`, and the
// `TrunkApplicationStarted` event fires once the app runs. A failure rejects unhandled, which
// index.html shows as "Unroll could not start".
function unrollBoot(base, glue, wasm) {
  "use strict";
  var root = document.documentElement;
  var url = new URL(base + wasm, location.href).href;
  // The module's download starts now, with the page, not once the worker has started: its
  // body is handed to the worker as a stream (where the browser can transfer one), which
  // compiles it as it arrives.
  var download = null;
  try {
    if (typeof ReadableStream === "function" && typeof fetch === "function") download = fetch(url);
  } catch (e) {
    download = null;
  }
  var compiled = new Promise(function (resolve) {
    var worker;
    try {
      worker = new Worker(base + "compile-worker.js", { name: "unroll-compile" });
    } catch (e) {
      resolve(null);
      return;
    }
    worker.onmessage = function (e) {
      worker.terminate();
      // Anything but a module (an old browser, a failed fetch): the page tries itself, and
      // its error, if any, is the one shown.
      resolve((e.data && e.data.module) || null);
    };
    worker.onerror = function (e) {
      e.preventDefault();
      worker.terminate();
      resolve(null);
    };
    if (!download) {
      worker.postMessage(url);
      return;
    }
    download.then(
      function (response) {
        if (!response.ok || !response.body) {
          worker.postMessage(url);
          return;
        }
        try {
          worker.postMessage({ url: url, body: response.body }, [response.body]);
        } catch (e) {
          // No transferable streams: the worker fetches the module itself.
          worker.postMessage(url);
        }
      },
      function () {
        worker.postMessage(url);
      },
    );
  });
  Promise.all([import(base + glue), compiled]).then(function (loaded) {
    var bindings = loaded[0];
    var module = loaded[1];
    root.setAttribute("data-wasm-compiled", module ? "worker" : "page");
    return bindings.default({ module_or_path: module || base + wasm }).then(function (instance) {
      window.wasmBindings = bindings;
      dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm: instance } }));
    });
  });
}
