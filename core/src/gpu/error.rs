//! Errors of the GPU path. Every failure the GPU can report reaches the caller as a
//! [`GpuError`]; nothing in `gpu` panics on a missing adapter, a lost device or bad input.

use std::fmt;

/// What went wrong on the GPU path.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum GpuError {
    /// No adapter was found (no WebGPU in this browser, no Vulkan driver natively).
    NoAdapter(String),
    /// The adapter refused to create a device.
    RequestDevice(String),
    /// The device was lost (destroyed, driver reset, browser reclaimed it). Training must
    /// continue elsewhere (the CPU path) from the last parameters read back.
    DeviceLost(String),
    /// wgpu reported a validation or out-of-memory error: a bug or an exhausted device.
    Device(String),
    /// Reading a buffer back failed.
    Readback(String),
    /// The input does not fit what the caller asked for (batch too large, symbol out of range, …).
    InvalidInput(String),
    /// The configuration needs more than this device allows (buffer size, workgroup count).
    TooLarge(String),
    /// A configuration the GPU path does not implement yet.
    Unsupported(String),
}

impl GpuError {
    /// What kind of failure this is, in English words without the detail (e.g. `the GPU device
    /// was lost`).
    pub fn summary(&self) -> &'static str {
        match self {
            GpuError::NoAdapter(_) => "no GPU adapter",
            GpuError::RequestDevice(_) => "could not create the GPU device",
            GpuError::DeviceLost(_) => "the GPU device was lost",
            GpuError::Device(_) => "GPU error",
            GpuError::Readback(_) => "GPU readback failed",
            GpuError::InvalidInput(_) => "invalid input for the GPU path",
            GpuError::TooLarge(_) => "too large for this GPU",
            GpuError::Unsupported(_) => "not supported on the GPU path yet",
        }
    }

    /// The detail: the words of wgpu, the browser or the check that failed.
    pub fn detail(&self) -> &str {
        match self {
            GpuError::NoAdapter(m)
            | GpuError::RequestDevice(m)
            | GpuError::DeviceLost(m)
            | GpuError::Device(m)
            | GpuError::Readback(m)
            | GpuError::InvalidInput(m)
            | GpuError::TooLarge(m)
            | GpuError::Unsupported(m) => m,
        }
    }
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.summary(), self.detail())
    }
}

impl std::error::Error for GpuError {}
