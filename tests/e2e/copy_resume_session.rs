//! Continuing a registry upload session that a stopped copy left, against the
//! real registry: a chunked upload stopped between chunks is continued from the
//! bytes the session holds (the source read from there by `Range`), a rest
//! that does not complete the digest is refused at the closing `PUT` and the
//! record dropped, and a session the registry no longer knows is not continued.

use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use strake::oci::registry::{RegistryClient, RegistryOptions, RegistryStore};
use strake::oci::{BlobStream, Descriptor, Digest, Store};

use crate::support::content::block_on;
use crate::support::registry::TestRegistry;

const MIB: usize = 1 << 20;

fn blob(len: usize) -> Bytes {
    Bytes::from(
        (0..len)
            .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
            .collect::<Vec<u8>>(),
    )
}

fn descriptor(data: &Bytes) -> Descriptor {
    Descriptor {
        media_type: "application/octet-stream".into(),
        digest: Digest::of(data),
        size: data.len() as u64,
    }
}

/// A client uploading in 1 MiB chunks and recording sessions under `state`.
fn store(reg: &TestRegistry, state: &std::path::Path, repo: &str) -> RegistryStore {
    RegistryClient::new(RegistryOptions {
        insecure_registries: vec![reg.addr()],
        monolithic_upload_max: MIB as u64,
        upload_chunk_size: MIB,
        upload_state_dir: Some(state.to_path_buf()),
        ..RegistryOptions::default()
    })
    .unwrap()
    .repository(&reg.addr(), repo)
}

/// Uploads `data` but stops (drops the upload, as a killed process would) once
/// `sent` bytes are produced: the source then stalls, so the chunks before are
/// answered and the one after is never sent.
async fn upload_stopped_after(store: &RegistryStore, data: &Bytes, sent: usize) {
    let head = data.slice(..sent);
    let pieces: Vec<strake::oci::Result<Bytes>> = head
        .chunks(256 << 10)
        .map(|c| Ok(Bytes::copy_from_slice(c)))
        .collect();
    let stream: BlobStream =
        Box::pin(futures_util::stream::iter(pieces).chain(futures_util::stream::pending()));
    let desc = descriptor(data);
    let upload = store.put_blob(&desc, stream);
    assert!(
        tokio::time::timeout(Duration::from_secs(3), upload)
            .await
            .is_err(),
        "the upload cannot finish without its last bytes"
    );
}

fn state_files(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0)
}

#[test]
fn an_upload_stopped_between_chunks_is_continued_from_the_bytes_the_session_holds() {
    let reg = TestRegistry::start();
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join("uploads");
    let data = blob(5 * MIB + 10);
    let desc = descriptor(&data);
    block_on(async {
        // The source: the same blob in another repository, read by Range.
        let source = store(&reg, &tmp.path().join("source-state"), "resume/source");
        source
            .put_blob(&desc, strake::oci::stream::bytes_stream(data.clone()))
            .await
            .unwrap();
        let dest = store(&reg, &state, "resume/dest");
        upload_stopped_after(&dest, &data, 2 * MIB + MIB / 2).await;
        assert_eq!(state_files(&state), 1, "the session is recorded");
        assert_eq!(dest.blob_size(&desc.digest).await.unwrap(), None);

        let partial = dest
            .resume_blob(&desc)
            .await
            .unwrap()
            .expect("a session to continue");
        assert_eq!(partial.offset(), 2 * MIB as u64, "the two answered chunks");
        let range = source
            .get_blob_from(&desc.digest, partial.offset())
            .await
            .unwrap();
        assert_eq!(range.start, partial.offset(), "the source honours Range");
        partial.complete(range.stream).await.unwrap();

        assert_eq!(dest.blob_size(&desc.digest).await.unwrap(), Some(desc.size));
        let mut got = Vec::new();
        let mut stream = dest.get_blob(&desc.digest).await.unwrap();
        while let Some(chunk) = stream.next().await {
            got.extend_from_slice(&chunk.unwrap());
        }
        assert!(got == data, "the registry holds the blob, byte for byte");
        assert_eq!(
            state_files(&state),
            0,
            "the record is dropped once committed"
        );
    });
}

#[test]
fn a_rest_that_does_not_complete_the_digest_is_refused_and_the_record_dropped() {
    let reg = TestRegistry::start();
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join("uploads");
    let data = blob(3 * MIB + 1);
    let desc = descriptor(&data);
    block_on(async {
        let dest = store(&reg, &state, "resume/wrong");
        upload_stopped_after(&dest, &data, MIB + 5).await;
        let partial = dest.resume_blob(&desc).await.unwrap().expect("a session");
        assert_eq!(partial.offset(), MIB as u64);
        let mut wrong = data.slice(MIB..).to_vec();
        wrong[100] ^= 1;
        let err = partial
            .complete(strake::oci::stream::bytes_stream(Bytes::from(wrong)))
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains(desc.digest.as_str()), "{err}");
        assert_eq!(dest.blob_size(&desc.digest).await.unwrap(), None);
        assert_eq!(state_files(&state), 0);
        assert!(dest.resume_blob(&desc).await.unwrap().is_none());
        // A rest of the wrong length is refused before the registry is asked.
        upload_stopped_after(&dest, &data, MIB + 5).await;
        let partial = dest.resume_blob(&desc).await.unwrap().expect("a session");
        let err = partial
            .complete(strake::oci::stream::bytes_stream(data.slice(MIB..MIB + 10)))
            .await
            .unwrap_err()
            .to_string();
        assert!(err.contains("expected"), "{err}");
        assert_eq!(dest.blob_size(&desc.digest).await.unwrap(), None);
    });
}

#[test]
fn a_session_the_registry_no_longer_knows_is_not_continued() {
    let reg = TestRegistry::start();
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join("uploads");
    let data = blob(2 * MIB + 3);
    let desc = descriptor(&data);
    block_on(async {
        let dest = store(&reg, &state, "resume/gone");
        upload_stopped_after(&dest, &data, MIB + 1).await;
        // The registry no longer knows the session (expired, or another uuid).
        let record = std::fs::read_dir(&state)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let text = std::fs::read_to_string(&record).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let location = json["location"].as_str().unwrap();
        let uuid = location
            .rsplit('/')
            .next()
            .unwrap()
            .split('?')
            .next()
            .unwrap();
        let gone = text.replace(uuid, "00000000-0000-0000-0000-000000000000");
        assert_ne!(gone, text);
        std::fs::write(&record, gone).unwrap();
        assert!(dest.resume_blob(&desc).await.unwrap().is_none());
        assert_eq!(
            state_files(&state),
            0,
            "the record of a lost session is dropped"
        );
    });
}
