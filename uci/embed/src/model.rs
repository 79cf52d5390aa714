//! The autoencoder as candle trains it: dense layers with tanh (the post's
//! model), weights drawn from a seeded generator (Glorot-uniform, Keras's
//! default) so a run can be repeated, and its conversion to the file Mach
//! runs (`mach_advisor::vectors::Net`).

use candle_core::{DType, Device, Tensor, Var};
use mach_advisor::vectors::planes::{Squares, INPUTS};
use mach_advisor::vectors::{Layer, Net, Output};
use rand::rngs::StdRng;
use rand::Rng;

/// The post's hidden layers, from the board inwards: 448 -> 300 -> 200 ->
/// 150 -> code, and back out the same way.
pub const HIDDEN: [usize; 3] = [300, 200, 150];

/// A network being trained.
pub struct Model {
    pub output: Output,
    /// Index of the layer whose outputs are the code.
    pub code_layer: usize,
    /// Each layer's weights (outputs x inputs) and biases.
    layers: Vec<(Var, Var)>,
}

/// The layer widths of the post's model with a code of `code` values.
pub fn widths(code: usize, output: Output) -> Vec<usize> {
    let mut w = vec![INPUTS];
    w.extend(HIDDEN);
    w.push(code);
    w.extend(HIDDEN.iter().rev());
    w.push(output.width());
    w
}

impl Model {
    /// A new network of these widths, its weights drawn from `rng`.
    pub fn new(
        widths: &[usize],
        code_layer: usize,
        output: Output,
        rng: &mut StdRng,
    ) -> candle_core::Result<Model> {
        let mut layers = Vec::new();
        for w in widths.windows(2) {
            let (inputs, outputs) = (w[0], w[1]);
            let limit = (6.0 / (inputs + outputs) as f64).sqrt() as f32;
            let weights: Vec<f32> = (0..inputs * outputs)
                .map(|_| rng.random_range(-limit..limit))
                .collect();
            let weights = Var::from_vec(weights, (outputs, inputs), &Device::Cpu)?;
            let bias = Var::zeros(outputs, DType::F32, &Device::Cpu)?;
            layers.push((weights, bias));
        }
        Ok(Model {
            output,
            code_layer,
            layers,
        })
    }

    /// What the optimiser moves.
    pub fn vars(&self) -> Vec<Var> {
        self.layers
            .iter()
            .flat_map(|(w, b)| [w.clone(), b.clone()])
            .collect()
    }

    /// The last layer's values for a batch of inputs `[n, 448]`.
    pub fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let last = self.layers.len() - 1;
        let mut h = x.clone();
        for (i, (w, b)) in self.layers.iter().enumerate() {
            h = h
                .matmul(&w.as_tensor().t()?)?
                .broadcast_add(b.as_tensor())?;
            if !(self.output == Output::Squares && i == last) {
                h = h.tanh()?;
            }
        }
        Ok(h)
    }

    /// The loss of a batch: the mean squared error on the planes (the
    /// post's), or the mean cross-entropy of each square's state.
    pub fn loss(&self, batch: &Batch) -> candle_core::Result<Tensor> {
        let y = self.forward(&batch.inputs)?;
        match self.output {
            Output::Planes => candle_nn::loss::mse(&y, &batch.inputs),
            Output::Squares => {
                let n = batch.len * 64;
                let scores = y.reshape((n, mach_advisor::vectors::planes::SQUARE_STATES))?;
                candle_nn::loss::cross_entropy(&scores, &batch.states)
            }
        }
    }

    /// The network as Mach runs it.
    pub fn to_net(&self, note: String) -> candle_core::Result<Net> {
        let mut layers = Vec::new();
        for (w, b) in &self.layers {
            let (outputs, inputs) = w.as_tensor().dims2()?;
            layers.push(Layer {
                inputs,
                outputs,
                weights: w.as_tensor().flatten_all()?.to_vec1::<f32>()?,
                bias: b.as_tensor().to_vec1::<f32>()?,
            });
        }
        Ok(Net {
            output: self.output,
            layers,
            code_layer: self.code_layer,
            note,
        })
    }
}

/// A batch of positions as tensors: the planes `[n, 448]` and each
/// square's state `[n * 64]` (the cross-entropy's targets).
pub struct Batch {
    pub len: usize,
    pub inputs: Tensor,
    pub states: Tensor,
}

impl Batch {
    pub fn of(positions: &[&Squares]) -> candle_core::Result<Batch> {
        let mut x = vec![0f32; positions.len() * INPUTS];
        let mut s = Vec::with_capacity(positions.len() * 64);
        for (p, chunk) in positions.iter().zip(x.chunks_exact_mut(INPUTS)) {
            p.write_planes(chunk);
            s.extend(p.states.iter().map(|&v| v as u32));
        }
        Ok(Batch {
            len: positions.len(),
            inputs: Tensor::from_vec(x, (positions.len(), INPUTS), &Device::Cpu)?,
            states: Tensor::from_vec(s, positions.len() * 64, &Device::Cpu)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::random_positions;
    use rand::SeedableRng;

    #[test]
    fn the_posts_model_has_its_463190_parameters() {
        let mut rng = StdRng::seed_from_u64(1);
        let m = Model::new(&widths(42, Output::Planes), 3, Output::Planes, &mut rng).unwrap();
        let net = m.to_net(String::new()).unwrap();
        assert_eq!(net.parameters(), 463_190);
        assert_eq!(net.code_size(), 42);
    }

    #[test]
    fn the_file_mach_runs_gives_what_candle_computed() {
        for output in [Output::Planes, Output::Squares] {
            let mut rng = StdRng::seed_from_u64(5);
            let m = Model::new(&widths(16, output), 3, output, &mut rng).unwrap();
            let net = m.to_net(String::new()).unwrap();
            let positions = random_positions(8, 9);
            let refs: Vec<&Squares> = positions.iter().collect();
            let y = m.forward(&Batch::of(&refs).unwrap().inputs).unwrap();
            let y = y.to_vec2::<f32>().unwrap();
            for (p, row) in positions.iter().zip(&y) {
                let ours = net.decode(&net.encode(p));
                for (a, b) in ours.iter().zip(row) {
                    assert!((a - b).abs() < 1e-4, "{a} vs {b}");
                }
            }
        }
    }
}
