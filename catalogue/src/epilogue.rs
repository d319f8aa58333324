//! What a fused epilogue does to each sum before it is stored (`D = act(α·A·B + bias)`), as the
//! caller names it: the [`Activation`], the [`BiasKind`], and the launch's code word for them
//! ([`code`], the kernels' `tessera_kernels::activation` constants). Which kernels fuse one:
//! [`crate::precision::fuses_epilogue`].
use tessera_kernels::activation;

/// The activation of a fused epilogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Activation {
    #[default]
    Identity,
    /// `max(x, 0)`.
    Relu,
    /// GELU, tanh form (PyTorch's `approximate="tanh"`).
    GeluTanh,
    /// GELU, exact form with erf (PyTorch's default).
    GeluErf,
    /// SiLU: `x · sigmoid(x)`.
    Silu,
}

impl Activation {
    /// Every activation.
    pub const ALL: [Activation; 5] = [Self::Identity, Self::Relu, Self::GeluTanh, Self::GeluErf, Self::Silu];

    /// The kernels' code for it.
    pub fn code(self) -> u32 {
        match self {
            Self::Identity => activation::IDENTITY,
            Self::Relu => activation::RELU,
            Self::GeluTanh => activation::GELU_TANH,
            Self::GeluErf => activation::GELU_ERF,
            Self::Silu => activation::SILU,
        }
    }

    /// `self` applied to `x` in f64: the reference the checks compare with.
    pub fn reference(self, x: f64) -> f64 {
        match self {
            Self::Identity => x,
            Self::Relu => x.max(0.0),
            Self::GeluTanh => 0.5 * x * (1.0 + ((2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x)).tanh()),
            Self::GeluErf => 0.5 * x * (1.0 + libm::erf(x / std::f64::consts::SQRT_2)),
            Self::Silu => x / (1.0 + (-x).exp()),
        }
    }
}

/// Where a fused bias applies: one value per output column (a linear layer's), or per output row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BiasKind {
    PerColumn,
    PerRow,
}

impl BiasKind {
    /// Values the bias of an `m × n` output holds.
    pub fn len(self, m: usize, n: usize) -> usize {
        match self {
            Self::PerColumn => n,
            Self::PerRow => m,
        }
    }
}

/// The launch's code word of an epilogue (0: none).
pub fn code(bias: Option<BiasKind>, act: Activation) -> u32 {
    let bias = match bias {
        None => activation::BIAS_NONE,
        Some(BiasKind::PerColumn) => activation::BIAS_PER_COLUMN,
        Some(BiasKind::PerRow) => activation::BIAS_PER_ROW,
    };
    bias | act.code()
}
