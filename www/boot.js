// Starts the app (Trunk.toml's `pattern_script` calls `unrollBoot` with the build's hashed file
// names). The wasm module is fetched by the page (at once) and compiled by a worker
// (compile-worker.js) as its bytes arrive, so the
// page's main thread never compiles it (nor deserialises the browser's cached code for it):
// the page only instantiates the compiled `WebAssembly.Module` it is posted. The engine's
// worker later gets the same `WebAssembly.Module` (src/shell/engine_client.rs) and compiles
// nothing either. Where a worker cannot start, the page compiles the module itself.
//
// <html data-wasm-compiled="worker|page"> records which one did (the end-to-end tests read it).
//
// Two builds of the module: Trunk's, whose CPU kernels may use WebAssembly relaxed SIMD
// (`f32x4.relaxed_madd`, core/src/math/packed.rs), and `<name>.simd128.wasm`, the same module
// with those instructions removed (scripts/postbuild.mjs), for browsers that would refuse the
// first. The boot asks the browser (`WebAssembly.validate` of a tiny module using the
// instruction), fetches the module it can run, and leaves its choice in `self.unrollWasmSimd`
// ("relaxed-simd" or "simd128"), which the Rust side adopts (page and engine workers alike).
// `localStorage["unroll-wasm-simd"] = "simd128"` forces the `simd128` module and kernels (a
// browser whose relaxed SIMD misbehaves; the end-to-end tests of both paths).
// As with Trunk's own loader: the wasm-bindgen exports are `window.wasmBindings`, and the
// `TrunkApplicationStarted` event fires once the app runs. A failure rejects unhandled, which
// index.html shows as "Unroll could not start".
function unrollBoot(base, glue, wasm) {
  "use strict";
  var root = document.documentElement;
  var forced = null;
  try {
    forced = localStorage.getItem("unroll-wasm-simd");
  } catch (e) {
    forced = null; // storage blocked: the browser's own answer
  }
  var relaxed = forced !== "simd128" && unrollRelaxedSimd();
  window.unrollWasmSimd = relaxed ? "relaxed-simd" : "simd128";
  if (!relaxed) wasm = wasm.replace(/\.wasm$/, ".simd128.wasm");
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

// Whether this browser compiles WebAssembly relaxed SIMD: a module of one function
// `(v128, v128, v128) -> v128` that returns `f32x4.relaxed_madd` of its parameters.
// The service worker runs this function too (scripts/postbuild.mjs copies it into sw.js) to choose
// the module it keeps.
function unrollRelaxedSimd() {
  try {
    return WebAssembly.validate(
      new Uint8Array([
        0, 97, 115, 109, 1, 0, 0, 0, 1, 8, 1, 96, 3, 123, 123, 123, 1, 123, 3, 2, 1, 0, 10, 13, 1, 11, 0, 32, 0,
        32, 1, 32, 2, 253, 133, 2, 11,
      ]),
    );
  } catch (e) {
    return false;
  }
}
