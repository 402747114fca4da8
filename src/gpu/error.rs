//! Errors of the GPU path. Every failure the GPU can report reaches the caller as a
//! [`GpuError`]; nothing in `gpu` panics on a missing adapter, a lost device or bad input.

use std::fmt;

/// What went wrong on the GPU path.
#[derive(Clone, Debug, PartialEq, Eq)]
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

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::NoAdapter(m) => write!(f, "no GPU adapter: {m}"),
            GpuError::RequestDevice(m) => write!(f, "could not create the GPU device: {m}"),
            GpuError::DeviceLost(m) => write!(f, "the GPU device was lost: {m}"),
            GpuError::Device(m) => write!(f, "GPU error: {m}"),
            GpuError::Readback(m) => write!(f, "GPU readback failed: {m}"),
            GpuError::InvalidInput(m) => write!(f, "invalid input for the GPU path: {m}"),
            GpuError::TooLarge(m) => write!(f, "too large for this GPU: {m}"),
            GpuError::Unsupported(m) => write!(f, "not supported on the GPU path yet: {m}"),
        }
    }
}

impl std::error::Error for GpuError {}
