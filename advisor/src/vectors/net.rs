//! The autoencoder's weights as Mach runs them: dense layers with tanh, the
//! encoder's last layer giving the position's vector (its code), the
//! decoder's last layer the reconstruction. Plain Rust, no ML library: the
//! trainer (`mach embed train`, uci/embed) writes this file and checks that
//! this forward pass gives what its own did.
//!
//! File (little-endian): the magic `MACHVEC1`; the output kind (u8: 0 the
//! post's 448 planes scored by squared error, 1 a softmax over 13 states
//! per square); the number of layers (u8) and the index of the code layer
//! (u8); each layer's inputs and outputs (u16 each); a note (u16 length,
//! UTF-8: how it was trained); then each layer's weights (outputs x inputs,
//! row-major) and biases as f32; and a CRC-32 of everything before it.

use std::io::Write;

use super::planes::{
    states_from_planes, states_from_scores, Squares, INPUTS, PLANES, SQUARE_STATES,
};
use crate::error::Error;

const MAGIC: &[u8; 8] = b"MACHVEC1";

/// Sizes beyond these are not a network Mach wrote.
const MAX_LAYERS: usize = 16;
const MAX_WIDTH: usize = 4096;

/// What the decoder's last layer gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// The 448 input values again (tanh), as in the post: trained on the
    /// mean squared error, read back by [`states_from_planes`].
    Planes,
    /// 64 x 13 scores (a softmax per square over its states): trained on
    /// cross-entropy, read back by [`states_from_scores`].
    Squares,
}

impl Output {
    /// Values of the last layer.
    pub fn width(self) -> usize {
        match self {
            Output::Planes => INPUTS,
            Output::Squares => 64 * SQUARE_STATES,
        }
    }

    fn code(self) -> u8 {
        match self {
            Output::Planes => 0,
            Output::Squares => 1,
        }
    }

    /// The name used on the command line (`--loss`).
    pub fn name(self) -> &'static str {
        match self {
            Output::Planes => "planes",
            Output::Squares => "squares",
        }
    }
}

/// One dense layer: `outputs` values from `inputs`.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    pub inputs: usize,
    pub outputs: usize,
    /// outputs x inputs, row-major.
    pub weights: Vec<f32>,
    pub bias: Vec<f32>,
}

impl Layer {
    fn apply(&self, x: &[f32], y: &mut Vec<f32>, tanh: bool) {
        y.clear();
        for (row, b) in self.weights.chunks_exact(self.inputs).zip(&self.bias) {
            let s = dot(row, x) + b;
            y.push(if tanh { s.tanh() } else { s });
        }
    }
}

/// A dot product in eight running sums, which the compiler turns into
/// vector instructions (one running sum must add in order, and cannot).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// A trained autoencoder.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub output: Output,
    pub layers: Vec<Layer>,
    /// Index of the layer whose outputs are the code (the position's vector).
    pub code_layer: usize,
    /// How it was trained (free text, kept with the weights).
    pub note: String,
}

impl Net {
    /// Checks the shapes: layers chained, 448 inputs, the output's width, a
    /// code layer inside the network.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.layers.len();
        if !(2..=MAX_LAYERS).contains(&n) {
            return Err(format!("{n} layers (2 to {MAX_LAYERS})"));
        }
        if self.code_layer + 1 >= n {
            return Err(format!("code layer {} of {n}", self.code_layer));
        }
        if self.layers[0].inputs != INPUTS {
            return Err(format!("{} inputs, not {INPUTS}", self.layers[0].inputs));
        }
        let last = self.layers[n - 1].outputs;
        if last != self.output.width() {
            return Err(format!(
                "{last} outputs, not the {} of {}",
                self.output.width(),
                self.output.name()
            ));
        }
        for (i, l) in self.layers.iter().enumerate() {
            if l.inputs == 0 || l.outputs == 0 || l.inputs > MAX_WIDTH || l.outputs > MAX_WIDTH {
                return Err(format!("layer {i}: {} x {}", l.inputs, l.outputs));
            }
            if l.weights.len() != l.inputs * l.outputs || l.bias.len() != l.outputs {
                return Err(format!("layer {i}: weights do not match its shape"));
            }
            if i > 0 && self.layers[i - 1].outputs != l.inputs {
                return Err(format!("layer {i} does not take layer {}'s outputs", i - 1));
            }
        }
        Ok(())
    }

    /// The code's size (the vector's dimensions).
    pub fn code_size(&self) -> usize {
        self.layers[self.code_layer].outputs
    }

    /// Trainable values in all.
    pub fn parameters(&self) -> usize {
        self.layers
            .iter()
            .map(|l| l.weights.len() + l.bias.len())
            .sum()
    }

    /// The position's vector: the code layer's outputs. The first layer
    /// reads only the inputs that are not zero (at most 32 pieces and the 64
    /// side-to-move values), a quarter of its weights.
    pub fn encode(&self, squares: &Squares) -> Vec<f32> {
        let first = &self.layers[0];
        let turn = if squares.white_to_move { 1.0 } else { -1.0 };
        let mut active: Vec<(usize, f32)> = Vec::with_capacity(96);
        for (sq, &s) in squares.states.iter().enumerate() {
            let at = sq * PLANES;
            match s {
                1..=6 => active.push((at + s as usize - 1, 1.0)),
                7..=12 => active.push((at + s as usize - 7, -1.0)),
                _ => {}
            }
            active.push((at + PLANES - 1, turn));
        }
        let h: Vec<f32> = first
            .weights
            .chunks_exact(first.inputs)
            .zip(&first.bias)
            .map(|(row, b)| {
                let s: f32 = active.iter().map(|&(i, v)| row[i] * v).sum::<f32>() + b;
                s.tanh()
            })
            .collect();
        if self.code_layer == 0 {
            return h;
        }
        self.run(&h, 1, self.code_layer + 1)
    }

    /// The last layer's values for a code (tanh planes, or raw scores).
    pub fn decode(&self, code: &[f32]) -> Vec<f32> {
        self.run(code, self.code_layer + 1, self.layers.len())
    }

    /// Squares read back from a code.
    pub fn reconstruct(&self, code: &[f32]) -> [u8; 64] {
        let y = self.decode(code);
        match self.output {
            Output::Planes => states_from_planes(&y),
            Output::Squares => states_from_scores(&y),
        }
    }

    /// Layers `from..to` on `x`: tanh after each but a softmax output.
    fn run(&self, x: &[f32], from: usize, to: usize) -> Vec<f32> {
        let mut a = x.to_vec();
        let mut b = Vec::new();
        for i in from..to {
            let tanh = !(self.output == Output::Squares && i + 1 == self.layers.len());
            self.layers[i].apply(&a, &mut b, tanh);
            std::mem::swap(&mut a, &mut b);
        }
        a
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(32 + 4 * self.parameters());
        out.extend_from_slice(MAGIC);
        out.push(self.output.code());
        out.push(self.layers.len() as u8);
        out.push(self.code_layer as u8);
        for l in &self.layers {
            out.extend_from_slice(&(l.inputs as u16).to_le_bytes());
            out.extend_from_slice(&(l.outputs as u16).to_le_bytes());
        }
        let note = &self.note.as_bytes()[..self.note.len().min(u16::MAX as usize)];
        out.extend_from_slice(&(note.len() as u16).to_le_bytes());
        out.extend_from_slice(note);
        for l in &self.layers {
            for v in l.weights.iter().chain(&l.bias) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Writes the file's bytes.
    pub fn write(&self, w: &mut impl Write) -> std::io::Result<()> {
        w.write_all(&self.to_bytes())
    }

    /// Reads a file Mach wrote; anything else (another file, a truncated or
    /// damaged one, impossible shapes) is an error that says which.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, Error> {
        let bad = |why: &str| Error::Input(format!("not a Mach vector network: {why}"));
        if bytes.len() < MAGIC.len() + 4 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(bad("no MACHVEC1 header"));
        }
        let (body, tail) = bytes.split_at(bytes.len() - 4);
        let crc = u32::from_le_bytes(tail.try_into().expect("4 bytes"));
        if crc32fast::hash(body) != crc {
            return Err(bad("checksum mismatch (damaged or truncated)"));
        }
        let mut r = Reader {
            bytes: body,
            at: MAGIC.len(),
        };
        let output = match r.u8().ok_or_else(|| bad("truncated"))? {
            0 => Output::Planes,
            1 => Output::Squares,
            k => return Err(bad(&format!("unknown output kind {k}"))),
        };
        let count = r.u8().ok_or_else(|| bad("truncated"))? as usize;
        let code_layer = r.u8().ok_or_else(|| bad("truncated"))? as usize;
        if count > MAX_LAYERS {
            return Err(bad(&format!("{count} layers")));
        }
        let mut shapes = Vec::with_capacity(count);
        for _ in 0..count {
            let i = r.u16().ok_or_else(|| bad("truncated"))? as usize;
            let o = r.u16().ok_or_else(|| bad("truncated"))? as usize;
            if i > MAX_WIDTH || o > MAX_WIDTH {
                return Err(bad(&format!("a layer of {i} x {o}")));
            }
            shapes.push((i, o));
        }
        let note_len = r.u16().ok_or_else(|| bad("truncated"))? as usize;
        let note = r.take(note_len).ok_or_else(|| bad("truncated"))?;
        let note = String::from_utf8_lossy(note).into_owned();
        let mut layers = Vec::with_capacity(count);
        for (inputs, outputs) in shapes {
            let weights = r.f32s(inputs * outputs).ok_or_else(|| bad("truncated"))?;
            let bias = r.f32s(outputs).ok_or_else(|| bad("truncated"))?;
            layers.push(Layer {
                inputs,
                outputs,
                weights,
                bias,
            });
        }
        if r.at != body.len() {
            return Err(bad("bytes after the weights"));
        }
        let net = Net {
            output,
            layers,
            code_layer,
            note,
        };
        net.validate().map_err(|e| bad(&e))?;
        if net
            .layers
            .iter()
            .any(|l| l.weights.iter().chain(&l.bias).any(|v| !v.is_finite()))
        {
            return Err(bad("a weight is not a finite number"));
        }
        Ok(net)
    }
}

/// A cursor over the file's bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let s = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(s)
    }

    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_le_bytes([b[0], b[1]]))
    }

    fn f32s(&mut self, n: usize) -> Option<Vec<f32>> {
        let b = self.take(n.checked_mul(4)?)?;
        Some(
            b.chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    /// A small network whose values are a simple function of their place.
    fn tiny(output: Output) -> Net {
        let sizes = [INPUTS, 12, 4, 12, output.width()];
        let layers = sizes
            .windows(2)
            .enumerate()
            .map(|(k, w)| Layer {
                inputs: w[0],
                outputs: w[1],
                weights: (0..w[0] * w[1])
                    .map(|i| ((i * 7 + k) % 13) as f32 / 13.0 - 0.5)
                    .collect(),
                bias: (0..w[1]).map(|i| (i % 3) as f32 * 0.1).collect(),
            })
            .collect();
        Net {
            output,
            layers,
            code_layer: 1,
            note: "test".into(),
        }
    }

    #[test]
    fn a_network_reads_back_from_its_bytes_as_it_was() {
        for output in [Output::Planes, Output::Squares] {
            let net = tiny(output);
            assert_eq!(Net::from_bytes(&net.to_bytes()).unwrap(), net);
        }
    }

    #[test]
    fn the_code_has_the_code_layers_size_and_decodes_to_the_outputs_width() {
        let net = tiny(Output::Squares);
        let pos = Chess::default();
        let code = net.encode(&Squares::of(pos.board(), pos.turn()));
        assert_eq!(code.len(), 4);
        assert!(code.iter().all(|v| v.abs() <= 1.0), "tanh codes");
        assert_eq!(net.decode(&code).len(), 64 * SQUARE_STATES);
        assert!(net.reconstruct(&code).iter().all(|&s| s < 13));
    }

    #[test]
    fn the_sparse_first_layer_gives_what_the_whole_one_gives() {
        let net = tiny(Output::Planes);
        let mut pos = Chess::default();
        for m in ["e2e4", "c7c5", "g1f3"] {
            let uci: shakmaty::uci::UciMove = m.parse().unwrap();
            pos.play_unchecked(uci.to_move(&pos).unwrap());
        }
        let sq = Squares::of(pos.board(), pos.turn());
        let whole = net.run(&sq.planes(), 0, net.code_layer + 1);
        let sparse = net.encode(&sq);
        for (a, b) in whole.iter().zip(&sparse) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
    }

    #[test]
    fn a_damaged_truncated_or_foreign_file_is_an_error_that_says_so() {
        let bytes = tiny(Output::Planes).to_bytes();
        let mut flipped = bytes.clone();
        flipped[40] ^= 1;
        let said = |b: &[u8]| Net::from_bytes(b).unwrap_err().to_string();
        assert!(said(&flipped).contains("checksum"), "{}", said(&flipped));
        assert!(said(&bytes[..bytes.len() - 9]).contains("checksum"));
        assert!(said(b"[Event \"x\"]\n").contains("header"));
        assert!(said(&[]).contains("header"));
    }

    #[test]
    fn shapes_that_do_not_chain_are_refused_even_with_a_good_checksum() {
        let mut net = tiny(Output::Planes);
        net.layers[2].inputs = 5;
        net.layers[2].weights.resize(5 * 12, 0.0);
        assert!(Net::from_bytes(&net.to_bytes())
            .unwrap_err()
            .to_string()
            .contains("does not take"));
    }
}
