//! The device and queue every kernel runs on, with device-loss tracking.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::error::GpuError;

/// What the device callbacks have seen so far. Shared with the callbacks (which need `Send`).
#[derive(Debug, Default)]
struct DeviceHealth {
    /// Set by the device-lost callback: the reason and message.
    lost: Mutex<Option<String>>,
    /// Uncaptured errors (validation, out of memory) in the order reported.
    errors: Mutex<Vec<String>>,
}

/// Running totals of the work the host code asked of one device (shared by every clone of its
/// [`GpuContext`] and by the kernels built on it).
#[derive(Debug, Default)]
pub(crate) struct Counters {
    dispatches: AtomicU64,
    submits: AtomicU64,
    readbacks: AtomicU64,
}

impl Counters {
    /// One compute dispatch encoded.
    pub(crate) fn dispatch(&self) {
        self.dispatches.fetch_add(1, Ordering::Relaxed);
    }
}

/// How much work the host code has asked of a device since it was created
/// ([`GpuContext::counts`]): what a real GPU pays for per call, whatever the arithmetic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GpuCounts {
    /// Compute dispatches encoded (`dispatch_workgroups`).
    pub dispatches: u64,
    /// Command buffers submitted to the queue (`queue.submit`).
    pub submits: u64,
    /// Buffer read-backs started (`map_async` of a staging buffer for reading).
    pub readbacks: u64,
}

impl GpuCounts {
    /// The counts from `earlier` to `self` (both from one context).
    pub fn since(&self, earlier: &GpuCounts) -> GpuCounts {
        GpuCounts {
            dispatches: self.dispatches.saturating_sub(earlier.dispatches),
            submits: self.submits.saturating_sub(earlier.submits),
            readbacks: self.readbacks.saturating_sub(earlier.readbacks),
        }
    }
}

/// A wgpu device and queue (native: Vulkan; wasm32: the browser's WebGPU).
///
/// Cloning is cheap (the wgpu handles are reference-counted) and every clone sees the same
/// device-loss state. The device is created with WebGPU's default limits (lowered to the
/// adapter's where an adapter offers less), so what runs here runs in a browser.
#[derive(Clone, Debug)]
pub struct GpuContext {
    /// The logical device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
    /// The adapter's self-description (name, driver, backend). `name` is often empty on the web.
    pub adapter_info: wgpu::AdapterInfo,
    health: Arc<DeviceHealth>,
    counters: Arc<Counters>,
    pipelines: Arc<Mutex<PipelineCache>>,
}

/// What makes two compute pipelines the same: kernel name, uniform size, storage bindings
/// (read-only or not) and override values (name, `f64` bits).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PipelineKey {
    pub(crate) name: &'static str,
    pub(crate) uniform_size: usize,
    pub(crate) read_only: Vec<bool>,
    pub(crate) constants: Vec<(String, u64)>,
}

/// The compute pipelines built on one device (a dozen or two: searched in order): a kernel
/// another model already built is not compiled again (SwiftShader spends up to 1.5 s on one; a
/// sweep builds the same kernels for every run).
pub(crate) type PipelineCache = Vec<(PipelineKey, wgpu::ComputePipeline, wgpu::BindGroupLayout)>;

impl GpuContext {
    /// Finds an adapter and creates a device.
    ///
    /// Native: the Vulkan backend (lavapipe where there is no GPU). wasm32: the browser's WebGPU.
    ///
    /// # Errors
    /// [`GpuError::NoAdapter`] when there is no adapter (no `navigator.gpu`, no adapter behind
    /// it, no Vulkan driver), [`GpuError::RequestDevice`] when the adapter refuses the device.
    pub async fn new() -> Result<GpuContext, GpuError> {
        #[cfg(target_arch = "wasm32")]
        let backends = wgpu::Backends::BROWSER_WEBGPU;
        #[cfg(not(target_arch = "wasm32"))]
        let backends = wgpu::Backends::VULKAN;

        #[cfg(target_arch = "wasm32")]
        if !wgpu::util::is_browser_webgpu_supported().await {
            return Err(GpuError::NoAdapter(
                "this browser does not offer WebGPU (navigator.gpu is missing)".into(),
            ));
        }

        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = backends;
        let instance = wgpu::Instance::new(desc);
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions::default())
            .await
            .map_err(|e| GpuError::NoAdapter(format!("{e} (backends: {backends:?})")))?;
        let adapter_info = adapter.get_info();
        let required_limits = wgpu::Limits::default().or_worse_values_from(&adapter.limits());
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("unroll"),
                required_features: wgpu::Features::empty(),
                required_limits,
                experimental_features: wgpu::ExperimentalFeatures::disabled(),
                memory_hints: wgpu::MemoryHints::Performance,
                trace: wgpu::Trace::Off,
            })
            .await
            .map_err(|e| GpuError::RequestDevice(e.to_string()))?;

        let health = Arc::new(DeviceHealth::default());
        let lost = Arc::clone(&health);
        device.set_device_lost_callback(move |reason, message| {
            if let Ok(mut slot) = lost.lost.lock() {
                slot.get_or_insert_with(|| format!("{reason:?}: {message}"));
            }
        });
        let errors = Arc::clone(&health);
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            if let Ok(mut list) = errors.errors.lock() {
                list.push(e.to_string());
            }
        }));
        Ok(GpuContext {
            device,
            queue,
            adapter_info,
            health,
            counters: Arc::default(),
            pipelines: Arc::default(),
        })
    }

    /// The adapter's name and driver, e.g. `"llvmpipe (LLVM 15.0.6, 256 bits) — Mesa 22.3.6"`.
    /// May be empty on the web, where browsers hide the adapter's identity.
    pub fn description(&self) -> String {
        let i = &self.adapter_info;
        let mut parts: Vec<&str> = Vec::new();
        for s in [i.name.as_str(), i.driver_info.as_str()] {
            if !s.trim().is_empty() {
                parts.push(s.trim());
            }
        }
        parts.join(" — ")
    }

    /// True when the adapter is a CPU running the kernels (lavapipe, SwiftShader; in a browser,
    /// an adapter that says it is a fallback), not a GPU.
    pub fn is_cpu_adapter(&self) -> bool {
        self.adapter_info.device_type == wgpu::DeviceType::Cpu
    }

    /// Dispatches, submits and read-backs asked of this device so far (all clones together).
    pub fn counts(&self) -> GpuCounts {
        let c = &self.counters;
        GpuCounts {
            dispatches: c.dispatches.load(Ordering::Relaxed),
            submits: c.submits.load(Ordering::Relaxed),
            readbacks: c.readbacks.load(Ordering::Relaxed),
        }
    }

    /// Compute pipelines built on this device so far (all clones together): one per distinct
    /// kernel, storage layout and override values ([`crate::gpu::kernels::Kernel::build_with`]).
    pub fn pipelines_built(&self) -> usize {
        self.pipelines.lock().map(|c| c.len()).unwrap_or(0)
    }

    /// The pipeline and bind group layout under `key`, built by `build` the first time.
    pub(crate) fn pipeline(
        &self,
        key: PipelineKey,
        build: impl FnOnce() -> (wgpu::ComputePipeline, wgpu::BindGroupLayout),
    ) -> (wgpu::ComputePipeline, wgpu::BindGroupLayout) {
        let mut cache = match self.pipelines.lock() {
            Ok(cache) => cache,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some((_, pipeline, layout)) = cache.iter().find(|(k, _, _)| *k == key) {
            return (pipeline.clone(), layout.clone());
        }
        let (pipeline, layout) = build();
        cache.push((key, pipeline.clone(), layout.clone()));
        (pipeline, layout)
    }

    /// The shared counters (for kernels, which count their dispatches).
    pub(crate) fn counters(&self) -> Arc<Counters> {
        Arc::clone(&self.counters)
    }

    /// Finishes `encoder` and submits it to the queue (counted).
    pub fn submit(&self, encoder: wgpu::CommandEncoder) {
        self.counters.submits.fetch_add(1, Ordering::Relaxed);
        self.queue.submit([encoder.finish()]);
    }

    /// Records that a read-back (`map_async` for reading) was started.
    pub(crate) fn count_readback(&self) {
        self.counters.readbacks.fetch_add(1, Ordering::Relaxed);
    }

    /// Why the device was lost, once it has been.
    pub fn lost_reason(&self) -> Option<String> {
        self.health.lost.lock().ok().and_then(|l| l.clone())
    }

    /// Uncaptured errors reported so far (validation, out of memory), oldest first, removed
    /// from the record.
    pub fn take_errors(&self) -> Vec<String> {
        self.health
            .errors
            .lock()
            .map(|mut e| std::mem::take(&mut *e))
            .unwrap_or_default()
    }

    /// `Ok` while the device is alive and has reported no uncaptured error.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] after loss; [`GpuError::Device`] with the first uncaptured error.
    pub fn check(&self) -> Result<(), GpuError> {
        if let Some(reason) = self.lost_reason() {
            return Err(GpuError::DeviceLost(reason));
        }
        let errors = self.take_errors();
        if let Some(first) = errors.into_iter().next() {
            return Err(GpuError::Device(first));
        }
        Ok(())
    }

    /// Debug hook: destroys the device, as a driver reset or the browser would. Everything
    /// using it afterwards reports [`GpuError::DeviceLost`].
    pub fn destroy_device(&self) {
        self.device.destroy();
    }

    /// Lets native wgpu run ready callbacks (map_async, device lost) without waiting.
    /// A no-op on the web.
    pub(crate) fn poll_nonblocking(&self) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let _ = self.device.poll(wgpu::PollType::Poll);
        }
    }

    /// Lets native wgpu run callbacks (map_async, device lost) and waits for submitted work.
    /// A no-op on the web, where the browser's event loop runs them.
    pub(crate) fn poll_wait(&self) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            // Errors here (e.g. a lost device) surface through the callbacks and `check`.
            let _ = self.device.poll(wgpu::PollType::wait_indefinitely());
        }
    }
}
