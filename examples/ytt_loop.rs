//! Renders a template N times in one process (profiling aid: `perf record` sees the
//! engine without process start-up). Usage: ytt_loop N [ytt template args…]
fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().expect("N").parse().expect("N is a number");
    let rest: Vec<String> = args.collect();
    let opts = strake::cli::template::parse_options(&rest).expect("arguments");
    let cwd = std::env::current_dir().expect("cwd");
    let start = std::time::Instant::now();
    let mut bytes = 0;
    for _ in 0..n {
        let out = strake::ytt::run(&opts, &cwd, &mut || Ok(Vec::new())).expect("render");
        bytes += out.stdout.len();
    }
    let per = start.elapsed().as_secs_f64() * 1000.0 / n as f64;
    eprintln!("{n} runs, {per:.3} ms per run, {} bytes per run", bytes / n);
}
