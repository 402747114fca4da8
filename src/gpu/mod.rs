//! wgpu host code for the WGSL kernels in `shaders/`.
