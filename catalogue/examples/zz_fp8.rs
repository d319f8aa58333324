use tessera_catalogue::select::{tc_model, tuning};
use tessera_catalogue::{MatmulShape, Precision};
fn main() {
    for s in std::env::args().nth(1).unwrap().split(',') {
        let s: MatmulShape = s.parse().unwrap();
        let (algo, us) = tc_model::pick_timed(s, Precision::Fp8E4m3, tuning::SMS).unwrap();
        let (sp, _) = tc_model::best_splits(algo, s, tuning::SMS);
        let one = tc_model::predict_us(algo, s, 1, tuning::SMS).unwrap();
        println!("{}x{}x{} pick {} splits {sp} pred {us:.1} unsplit {one:.1}", s.m, s.n, s.k, algo.label());
    }
}
