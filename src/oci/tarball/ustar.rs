//! The USTAR headers of an imgpkg tarball, as Go's `archive/tar` writes them for a
//! regular file with mode 0644, uid/gid 0, mtime 0 and no user or group names
//! (and the same for a directory, mode 0755, in an OCI layout tar).

/// Size of a tar block.
pub const BLOCK: u64 = 512;

/// The longest name a USTAR name field holds (imgpkg entry names are 78 bytes).
pub const MAX_NAME: usize = 100;

/// A 512-byte header for a regular file `name` of `size` bytes.
pub fn file_header(name: &str, size: u64) -> Result<[u8; 512], String> {
    header(name, size, 0o644, b'0')
}

/// A 512-byte header for a directory `name` (ending in `/`), mode 0755.
pub fn dir_header(name: &str) -> Result<[u8; 512], String> {
    header(name, 0, 0o755, b'5')
}

fn header(name: &str, size: u64, mode: u64, typeflag: u8) -> Result<[u8; 512], String> {
    if name.len() > MAX_NAME || !name.is_ascii() {
        return Err(format!(
            "tar entry name {name:?} does not fit a USTAR name field"
        ));
    }
    if size >= 0o77777777777 {
        return Err(format!(
            "tar entry {name:?} is {size} bytes, over the USTAR limit of 8 GiB"
        ));
    }
    let mut h = [0u8; 512];
    h[..name.len()].copy_from_slice(name.as_bytes());
    octal(&mut h[100..108], mode);
    octal(&mut h[108..116], 0);
    octal(&mut h[116..124], 0);
    octal(&mut h[124..136], size);
    octal(&mut h[136..148], 0);
    h[156] = typeflag;
    h[257..263].copy_from_slice(b"ustar\0");
    h[263..265].copy_from_slice(b"00");
    octal(&mut h[329..337], 0);
    octal(&mut h[337..345], 0);
    // The checksum is computed with its own field as spaces, then written as six
    // octal digits, a NUL and a space.
    h[148..156].copy_from_slice(b"        ");
    let sum: u64 = h.iter().map(|&b| u64::from(b)).sum();
    let digits = format!("{sum:06o}");
    h[148..154].copy_from_slice(digits.as_bytes());
    h[154] = 0;
    h[155] = b' ';
    Ok(h)
}

/// Zero-padded octal digits filling the field except for a final NUL.
fn octal(field: &mut [u8], value: u64) {
    let width = field.len() - 1;
    let digits = format!("{value:0width$o}");
    field[..width].copy_from_slice(digits.as_bytes());
    field[width] = 0;
}

/// Bytes of padding after a body of `size` bytes.
pub fn padding(size: u64) -> u64 {
    (BLOCK - size % BLOCK) % BLOCK
}

/// The bytes a body of `size` bytes takes in an archive: whole blocks.
pub fn padded(size: u64) -> u64 {
    size.div_ceil(BLOCK) * BLOCK
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_fields_match_go() {
        let h = file_header("manifest.json", 4751).unwrap();
        assert_eq!(&h[100..108], b"0000644\0");
        assert_eq!(&h[124..136], b"00000011217\0");
        assert_eq!(&h[148..156], b"011710\0 ");
        assert_eq!(&h[257..265], b"ustar\x0000");
        assert_eq!(&h[329..345], b"0000000\x000000000\0");
        assert_eq!(padding(4751), 369);
        assert_eq!(padding(1024), 0);
        assert!(file_header(&"x".repeat(101), 1).is_err());
    }
}
