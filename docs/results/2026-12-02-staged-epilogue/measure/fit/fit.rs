use tessera_catalogue::select::{tc_model, tuning};
use tessera_catalogue::{Algo, MatmulShape};

const HELD: [(u32, u32, u32); 7] = [(640, 640, 640), (777, 1234, 999), (2048, 2048, 2048), (8192, 256, 4096), (9601, 3525, 64), (2108, 7758, 90), (3000, 9001, 128)];

fn rows() -> Vec<(Algo, MatmulShape, u32, f64)> {
    include_str!("data/tc-calibration.csv").lines().filter(|l| !l.starts_with('#')).map(|line| {
        let f: Vec<&str> = line.split(',').collect();
        let num = |i: usize| f[i].parse::<u32>().unwrap();
        (Algo::from_label(f[0]).unwrap(), MatmulShape { m: num(1), n: num(2), k: num(3) }, num(4), f[5].parse().unwrap())
    }).collect()
}

fn errs(rs: &[(Algo, MatmulShape, u32, f64)], held: bool) -> Vec<f64> {
    let mut e: Vec<f64> = rs.iter().filter(|r| HELD.contains(&(r.1.m, r.1.n, r.1.k)) == held)
        .map(|r| (tc_model::predict_us(r.0, r.1, r.2, tuning::SMS).unwrap() / r.3).ln().abs()).collect();
    e.sort_by(f64::total_cmp);
    e
}
fn obj(rs: &[(Algo, MatmulShape, u32, f64)]) -> f64 { let e = errs(rs, false); e.iter().sum::<f64>() / e.len() as f64 }
fn report(rs: &[(Algo, MatmulShape, u32, f64)]) {
    for held in [false, true] {
        let e = errs(rs, held);
        println!("held {held}: n {} mean {:.4} median {:.4} p90 {:.4}", e.len(), e.iter().sum::<f64>() / e.len() as f64, e[e.len() / 2], e[e.len() * 9 / 10]);
    }
}

#[test]
fn fit() {
    let rs = rows();
    let free: Vec<usize> = std::env::var("FREE").unwrap_or("0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15".into()).split(',').map(|x| x.parse().unwrap()).collect();
    report(&rs);
    let mut best = obj(&rs);
    let mut step = 0.2f64;
    while step > 0.005 {
        let mut improved = false;
        for &i in &free {
            for dir in [1.0 + step, 1.0 / (1.0 + step)] {
                let old = tc_model::PARAMS.lock().unwrap()[i];
                tc_model::PARAMS.lock().unwrap()[i] = old * dir;
                let o = obj(&rs);
                if o < best - 1e-6 { best = o; improved = true; } else { tc_model::PARAMS.lock().unwrap()[i] = old; }
            }
        }
        if !improved { step /= 2.0; }
    }
    println!("params {:?}", tc_model::PARAMS.lock().unwrap());
    report(&rs);
}
