//! The training loop: Adam with AMSGrad on shuffled batches (the post's:
//! batch 128, learning rate 0.001), the learning curve printed after each epoch (the
//! training loss, and the held-out positions' loss and wrong squares), and
//! the network written after each epoch, so Ctrl-C keeps the last whole one.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use candle_nn::Optimizer;
use indicatif::{ProgressBar, ProgressStyle};
use mach_advisor::vectors::{Net, Squares};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use crate::amsgrad::{AmsGrad, Settings};
use crate::measure::{reconstruction, Reconstruction};
use crate::model::{widths, Batch, Model};
use mach_advisor::vectors::Output;

/// How to train.
#[derive(Clone, Debug)]
pub struct Plan {
    pub code: usize,
    pub output: Output,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f64,
    pub seed: u64,
}

/// One epoch's point of the learning curve.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    pub epoch: usize,
    pub train_loss: f64,
    pub held_out_loss: f64,
    pub held_out: Reconstruction,
    pub seconds: f64,
}

/// How training ended.
pub struct Trained {
    pub net: Net,
    pub curve: Vec<Epoch>,
    /// Ctrl-C stopped it before the last epoch.
    pub interrupted: bool,
}

fn err(e: candle_core::Error) -> String {
    format!("training: {e}")
}

/// Trains on `train`, measures on `held_out` after each epoch, and calls
/// `save` with the network after each whole epoch. `stop` (Ctrl-C) ends it
/// between batches; the epoch under way is then dropped.
pub fn train(
    plan: &Plan,
    train: &[Squares],
    held_out: &[Squares],
    note: &str,
    stop: &AtomicBool,
    mut save: impl FnMut(&Net) -> Result<(), String>,
) -> Result<Trained, String> {
    if train.is_empty() {
        return Err("no training positions".into());
    }
    let mut rng = StdRng::seed_from_u64(plan.seed);
    let widths = widths(plan.code, plan.output);
    let model = Model::new(&widths, 3, plan.output, &mut rng).map_err(err)?;
    let mut opt = AmsGrad::new(
        model.vars(),
        Settings {
            lr: plan.learning_rate,
            ..Settings::default()
        },
    )
    .map_err(err)?;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut curve = Vec::new();
    let mut net = model.to_net(note.to_string()).map_err(err)?;
    let batches = train.len().div_ceil(plan.batch);
    for epoch in 1..=plan.epochs {
        let start = Instant::now();
        order.shuffle(&mut rng);
        let bar = ProgressBar::new(batches as u64);
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "epoch {epoch}/{} {{bar:40}} {{pos}}/{{len}} batches, {{elapsed}} ({{eta}} left)",
                plan.epochs
            ))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        let mut sum = 0.0;
        for chunk in order.chunks(plan.batch) {
            if stop.load(Ordering::SeqCst) {
                bar.abandon();
                return Ok(Trained {
                    net,
                    curve,
                    interrupted: true,
                });
            }
            let positions: Vec<&Squares> = chunk.iter().map(|&i| &train[i]).collect();
            let batch = Batch::of(&positions).map_err(err)?;
            let loss = model.loss(&batch).map_err(err)?;
            sum += loss.to_scalar::<f32>().map_err(err)? as f64 * chunk.len() as f64;
            opt.backward_step(&loss).map_err(err)?;
            bar.inc(1);
        }
        bar.finish_and_clear();
        net = model
            .to_net(format!("{note}; epoch {epoch}"))
            .map_err(err)?;
        let point = Epoch {
            epoch,
            train_loss: sum / train.len() as f64,
            held_out_loss: mean_loss(&model, held_out, plan.batch)?,
            held_out: reconstruction(&net, held_out),
            seconds: start.elapsed().as_secs_f64(),
        };
        println!(
            "epoch {epoch}/{}: training loss {:.5}, held-out loss {:.5}, held-out wrong squares {:.2} per position ({:.1}% of pieces recovered), {:.0} s",
            plan.epochs,
            point.train_loss,
            point.held_out_loss,
            point.held_out.wrong_per_position(),
            point.held_out.recovered_percent(),
            point.seconds
        );
        curve.push(point);
        save(&net)?;
    }
    Ok(Trained {
        net,
        curve,
        interrupted: false,
    })
}

/// The loss over `positions`, without training on them.
fn mean_loss(model: &Model, positions: &[Squares], batch: usize) -> Result<f64, String> {
    let mut sum = 0.0;
    for chunk in positions.chunks(batch) {
        let refs: Vec<&Squares> = chunk.iter().collect();
        let b = Batch::of(&refs).map_err(err)?;
        let loss = model
            .loss(&b)
            .map_err(err)?
            .to_scalar::<f32>()
            .map_err(err)?;
        sum += loss as f64 * chunk.len() as f64;
    }
    Ok(sum / positions.len().max(1) as f64)
}

/// Writes `net` to `path` whole or not at all.
pub fn save_to(path: &Path, net: &Net) -> Result<(), String> {
    mach_files::outfile::replace(path, |f| net.write(f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::random_positions;
    use mach_advisor::vectors::Squares as Sq;
    use shakmaty::{Chess, Position};

    #[test]
    fn training_on_one_position_learns_to_rebuild_it_and_the_same_seed_gives_the_same_net() {
        let pos = Chess::default();
        let start = Sq::of(pos.board(), pos.turn());
        let data = vec![start; 64];
        let plan = Plan {
            code: 8,
            output: Output::Squares,
            epochs: 12,
            batch: 16,
            learning_rate: 0.003,
            seed: 11,
        };
        let stop = AtomicBool::new(false);
        let a = train(&plan, &data, &data[..4], "t", &stop, |_| Ok(())).unwrap();
        let last = a.curve.last().unwrap();
        assert_eq!(last.held_out.wrong_per_position(), 0.0, "{last:?}");
        assert!(last.train_loss < a.curve[0].train_loss);
        let b = train(&plan, &data, &data[..4], "t", &stop, |_| Ok(())).unwrap();
        assert_eq!(a.net, b.net, "seeded: the same network twice");
    }

    #[test]
    fn a_stop_ends_training_with_the_last_whole_epoch() {
        let data = random_positions(40, 1);
        let plan = Plan {
            code: 4,
            output: Output::Planes,
            epochs: 3,
            batch: 8,
            learning_rate: 0.001,
            seed: 1,
        };
        let stop = AtomicBool::new(true);
        let mut saved = 0;
        let t = train(&plan, &data, &data, "t", &stop, |_| {
            saved += 1;
            Ok(())
        })
        .unwrap();
        assert!(t.interrupted);
        assert!(t.curve.is_empty());
        assert_eq!(saved, 0);
    }
}
