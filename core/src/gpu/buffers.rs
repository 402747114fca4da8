//! Buffer constructors and asynchronous readback (`map_async` + a oneshot channel; the
//! device is polled only on native, never blocked on the web).

use futures_channel::oneshot;

use super::context::GpuContext;
use super::error::GpuError;

/// A storage buffer of `bytes` bytes (rounded up to a multiple of 4, at least 16), usable as a
/// copy source and destination. Zero-filled by wgpu.
pub fn storage(ctx: &GpuContext, label: &str, bytes: u64) -> wgpu::Buffer {
    let size = bytes.max(16).div_ceil(4) * 4;
    ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    })
}

/// A storage buffer holding `data`.
pub fn storage_with(ctx: &GpuContext, label: &str, data: &[u8]) -> wgpu::Buffer {
    let buffer = storage(ctx, label, data.len() as u64);
    if !data.is_empty() {
        ctx.queue.write_buffer(&buffer, 0, data);
    }
    buffer
}

/// A mappable buffer that copies land in for reading back.
pub fn staging(ctx: &GpuContext, label: &str, bytes: u64) -> wgpu::Buffer {
    ctx.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: bytes.max(4).div_ceil(4) * 4,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// A `map_async` in flight on a staging buffer whose copy has been submitted.
#[derive(Debug)]
pub struct PendingMap {
    staging: wgpu::Buffer,
    len: u64,
    rx: oneshot::Receiver<Result<(), wgpu::BufferAsyncError>>,
}

impl PendingMap {
    /// Starts mapping the first `len` bytes of `staging` (call after the submit that fills it);
    /// counted as a read-back of `ctx`.
    pub fn start(ctx: &GpuContext, staging: wgpu::Buffer, len: u64) -> PendingMap {
        ctx.count_readback();
        let (tx, rx) = oneshot::channel();
        staging
            .slice(..len)
            .map_async(wgpu::MapMode::Read, move |r| {
                let _ = tx.send(r);
            });
        PendingMap { staging, len, rx }
    }

    /// Waits (asynchronously) for the map, copies the bytes out, unmaps, and hands the staging
    /// buffer back for reuse.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] when the device is gone, [`GpuError::Readback`] otherwise.
    pub async fn finish(self, ctx: &GpuContext) -> Result<(Vec<u8>, wgpu::Buffer), GpuError> {
        ctx.poll_wait();
        let outcome = self.rx.await;
        let lost = || ctx.lost_reason().map(GpuError::DeviceLost);
        match outcome {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(lost().unwrap_or_else(|| GpuError::Readback(e.to_string()))),
            Err(_) => {
                return Err(
                    lost().unwrap_or_else(|| GpuError::Readback("map callback dropped".into()))
                )
            }
        }
        let bytes = match self.staging.slice(..self.len).get_mapped_range() {
            Ok(view) => view.to_vec(),
            Err(e) => return Err(lost().unwrap_or_else(|| GpuError::Readback(e.to_string()))),
        };
        self.staging.unmap();
        Ok((bytes, self.staging))
    }
}

/// Copies `bytes` bytes from `src` at `offset` and reads them back.
///
/// # Errors
/// See [`PendingMap::finish`]; also the context's device errors.
pub async fn read_bytes(
    ctx: &GpuContext,
    src: &wgpu::Buffer,
    offset: u64,
    bytes: u64,
) -> Result<Vec<u8>, GpuError> {
    ctx.check()?;
    let stage = staging(ctx, "readback", bytes);
    let mut encoder = ctx
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("readback"),
        });
    encoder.copy_buffer_to_buffer(src, offset, &stage, 0, bytes);
    ctx.submit(encoder);
    let (data, _) = PendingMap::start(ctx, stage, bytes).finish(ctx).await?;
    ctx.check()?;
    Ok(data)
}

/// Reads `len` f32 values from `src` starting at element `offset`.
///
/// # Errors
/// See [`read_bytes`].
pub async fn read_f32(
    ctx: &GpuContext,
    src: &wgpu::Buffer,
    offset: usize,
    len: usize,
) -> Result<Vec<f32>, GpuError> {
    if len == 0 {
        return Ok(Vec::new());
    }
    let bytes = read_bytes(ctx, src, offset as u64 * 4, len as u64 * 4).await?;
    Ok(bytemuck::pod_collect_to_vec(&bytes))
}
