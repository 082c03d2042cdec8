//! When and how long to wait before retrying a request: retryable statuses
//! (408, 429, 499, 500, 502, 503, 504, 522, as ggcr), `Retry-After` in seconds,
//! and exponential backoff with jitter otherwise.

use std::time::Duration;

use reqwest::StatusCode;

use crate::oci::registry::RegistryOptions;

/// Statuses worth retrying.
pub fn is_retryable_status(status: StatusCode) -> bool {
    matches!(
        status.as_u16(),
        408 | 429 | 499 | 500 | 502 | 503 | 504 | 522
    )
}

/// Connection-level failures worth retrying: connect errors (refused, reset,
/// TLS handshake cut) and timeouts; a name that does not resolve is not retried,
/// since waiting will not make it resolve.
pub fn is_retryable_error(err: &reqwest::Error) -> bool {
    if is_dns_error(err) {
        return false;
    }
    err.is_connect() || err.is_timeout() || err.is_request()
}

/// True when the error chain says name resolution failed.
pub fn is_dns_error(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = source {
        let text = e.to_string();
        if text.contains("dns error") || text.contains("failed to lookup address") {
            return true;
        }
        source = e.source();
    }
    false
}

/// `Retry-After: <seconds>` (the HTTP-date form is ignored: backoff applies).
pub fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let value = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
    value.trim().parse::<u64>().ok().map(Duration::from_secs)
}

/// The wait before attempt `attempt + 1` (attempt counts from 0): the server's
/// `Retry-After` (capped) when it gave one, otherwise base × 2^attempt capped at
/// the maximum, scaled by a random factor in [0.5, 1.0].
pub fn delay(options: &RegistryOptions, attempt: u32, server: Option<Duration>) -> Duration {
    if let Some(wait) = server {
        return wait.min(options.retry_after_cap);
    }
    let exp = options
        .retry_base_delay
        .saturating_mul(1u32 << attempt.min(16))
        .min(options.retry_max_delay);
    exp.mul_f64(0.5 + rand::random::<f64>() * 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retryable_statuses() {
        for s in [408, 429, 500, 502, 503, 504] {
            assert!(is_retryable_status(StatusCode::from_u16(s).unwrap()), "{s}");
        }
        for s in [200, 201, 400, 401, 403, 404, 416] {
            assert!(
                !is_retryable_status(StatusCode::from_u16(s).unwrap()),
                "{s}"
            );
        }
    }

    #[test]
    fn backoff_grows_is_capped_and_honours_retry_after() {
        let o = RegistryOptions::default();
        let d0 = delay(&o, 0, None);
        assert!(d0 >= Duration::from_millis(50) && d0 <= Duration::from_millis(100));
        let d9 = delay(&o, 9, None);
        assert!(d9 >= Duration::from_millis(500) && d9 <= Duration::from_secs(1));
        assert_eq!(
            delay(&o, 3, Some(Duration::from_secs(1))),
            Duration::from_secs(1)
        );
        assert_eq!(
            delay(&o, 0, Some(Duration::from_secs(3600))),
            Duration::from_secs(60)
        );
        let mut h = reqwest::header::HeaderMap::new();
        h.insert("retry-after", "2".parse().unwrap());
        assert_eq!(retry_after(&h), Some(Duration::from_secs(2)));
        h.insert(
            "retry-after",
            "Wed, 21 Oct 2015 07:28:00 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(&h), None);
    }
}
