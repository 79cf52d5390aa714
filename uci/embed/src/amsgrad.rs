//! Adam with the AMSGrad correction (Reddi, Kale & Kumar, 2018), the
//! optimiser the post trained with (Keras's Adam with `amsgrad=True`,
//! epsilon 1e-7): each weight's step is divided by the largest second
//! moment seen so far, not the current one, so a weight whose gradients
//! calm down does not suddenly take large steps. Plain Adam let the post's
//! squared-error model jump back from 6 to 17 wrong squares per position
//! between two epochs (docs/vectors.md); candle has no AMSGrad of its own.

use candle_core::backprop::GradStore;
use candle_core::{Result, Var};
use candle_nn::Optimizer;

/// The post's settings: lr 0.001, beta1 0.9, beta2 0.999, epsilon 1e-7.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub lr: f64,
    pub beta1: f64,
    pub beta2: f64,
    pub eps: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            lr: 0.001,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-7,
        }
    }
}

struct Moments {
    var: Var,
    first: Var,
    second: Var,
    /// The largest second moment so far.
    most: Var,
}

/// The optimiser's state.
pub struct AmsGrad {
    vars: Vec<Moments>,
    step: i32,
    settings: Settings,
}

impl Optimizer for AmsGrad {
    type Config = Settings;

    fn new(vars: Vec<Var>, settings: Settings) -> Result<Self> {
        let vars = vars
            .into_iter()
            .filter(|v| v.dtype().is_float())
            .map(|var| {
                let zeros = || Var::zeros(var.shape(), var.dtype(), var.device());
                Ok(Moments {
                    first: zeros()?,
                    second: zeros()?,
                    most: zeros()?,
                    var,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(AmsGrad {
            vars,
            step: 0,
            settings,
        })
    }

    fn step(&mut self, grads: &GradStore) -> Result<()> {
        self.step += 1;
        let s = self.settings;
        // Keras folds both bias corrections into the step size.
        let lr = s.lr * (1.0 - s.beta2.powi(self.step)).sqrt() / (1.0 - s.beta1.powi(self.step));
        for m in &self.vars {
            let Some(g) = grads.get(&m.var) else { continue };
            let first = ((m.first.as_tensor() * s.beta1)? + (g * (1.0 - s.beta1))?)?;
            let second = ((m.second.as_tensor() * s.beta2)? + (g.sqr()? * (1.0 - s.beta2))?)?;
            let most = m.most.as_tensor().maximum(&second)?;
            let step = (&first / (most.sqrt()? + s.eps)?)?;
            m.var.set(&(m.var.as_tensor() - (step * lr)?)?)?;
            m.first.set(&first)?;
            m.second.set(&second)?;
            m.most.set(&most)?;
        }
        Ok(())
    }

    fn learning_rate(&self) -> f64 {
        self.settings.lr
    }

    fn set_learning_rate(&mut self, lr: f64) {
        self.settings.lr = lr;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{Device, Tensor};

    #[test]
    fn it_walks_a_bowl_down_to_its_bottom() {
        let x = Var::from_vec(vec![3.0f32, -2.0], 2, &Device::Cpu).unwrap();
        let mut opt = AmsGrad::new(
            vec![x.clone()],
            Settings {
                lr: 0.1,
                ..Settings::default()
            },
        )
        .unwrap();
        for _ in 0..300 {
            let target = Tensor::new(&[1.0f32, 1.0], &Device::Cpu).unwrap();
            let loss = (x.as_tensor() - target)
                .unwrap()
                .sqr()
                .unwrap()
                .sum_all()
                .unwrap();
            opt.backward_step(&loss).unwrap();
        }
        for v in x.as_tensor().to_vec1::<f32>().unwrap() {
            assert!((v - 1.0).abs() < 0.05, "{v}");
        }
    }
}
