//! The position core: squares, bitboards, pieces, moves, attack tables, Zobrist keys,
//! positions (FEN, make/unmake), legal move generation, move notation, perft (the count
//! that checks move generation) and the sample positions the bench and tests use.

pub mod attacks;
pub mod bitboard;
pub mod fen;
pub mod movegen;
pub mod mv;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod samples;
pub mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, IllegalPosition, START_FEN};
pub use movegen::{MoveList, gen_type};
pub use mv::Move;
pub use piece::{Color, Piece, PieceType};
pub use position::Position;
pub use square::Square;
