//! Float formatting compatible with Go's `strconv.FormatFloat(f, 'g', -1, 64)`, which is what
//! go-yaml v2 (and so ytt) prints, plus the YAML spellings of infinities and NaN.

/// Formats like Go's `strconv.FormatFloat(f, 'g', -1, 64)`: shortest round-trip digits, in
/// exponent form (`1e+06`, `1e-05`) when the decimal exponent is < -4 or >= 6 (Go's rule for
/// the shortest format). NaN is `NaN`, infinities `+Inf`/`-Inf`.
pub fn format_go_g(f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.to_string();
    }
    let neg = f.is_sign_negative();
    let abs = f.abs();
    if abs == 0.0 {
        return if neg { "-0" } else { "0" }.to_string();
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "1.2345e20", "5e-1".
    let sci = format!("{abs:e}");
    let (mant, exp) = sci.split_once('e').expect("exponent in {:e} output");
    let exp: i32 = exp.parse().expect("integer exponent");
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    let nd = digits.len() as i32;
    let dp = exp + 1; // position of the decimal point relative to the digits
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if !(-4..6).contains(&exp) {
        // %e: d.ddd e±XX
        out.push_str(&digits[..1]);
        if nd > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let e = exp.abs();
        if e < 10 {
            out.push('0');
        }
        out.push_str(&e.to_string());
    } else if dp <= 0 {
        out.push_str("0.");
        for _ in 0..(-dp) {
            out.push('0');
        }
        out.push_str(&digits);
    } else if dp >= nd {
        out.push_str(&digits);
        for _ in 0..(dp - nd) {
            out.push('0');
        }
    } else {
        out.push_str(&digits[..dp as usize]);
        out.push('.');
        out.push_str(&digits[dp as usize..]);
    }
    out
}

/// Formats a float as go-yaml v2 prints it in YAML: Go `'g'` format, with `.inf`, `-.inf` and
/// `.nan` for the special values.
pub fn format_yaml_float(f: f64) -> String {
    match format_go_g(f).as_str() {
        "+Inf" => ".inf".to_string(),
        "-Inf" => "-.inf".to_string(),
        "NaN" => ".nan".to_string(),
        s => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_g_format() {
        let cases: &[(f64, &str)] = &[
            (1.5, "1.5"),
            (-0.25, "-0.25"),
            (1000.0, "1000"),
            (1500.0, "1500"),
            (0.00025, "0.00025"),
            (3.0, "3"),
            (0.5, "0.5"),
            (10.0, "10"),
            (1e6, "1e+06"),
            (123456.0, "123456"),
            (1234567.0, "1.234567e+06"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (1.2345678901234568e20, "1.2345678901234568e+20"),
            (1e21, "1e+21"),
            (1e100, "1e+100"),
            (3.5, "3.5"),
            (0.1, "0.1"),
            (0.0, "0"),
            (-0.0, "-0"),
            (89.0, "89"),
        ];
        for (f, want) in cases {
            assert_eq!(format_go_g(*f), *want, "formatting {f}");
        }
    }

    #[test]
    fn yaml_specials() {
        assert_eq!(format_yaml_float(f64::INFINITY), ".inf");
        assert_eq!(format_yaml_float(f64::NEG_INFINITY), "-.inf");
        assert_eq!(format_yaml_float(f64::NAN), ".nan");
        assert_eq!(format_yaml_float(2.0), "2");
    }
}
