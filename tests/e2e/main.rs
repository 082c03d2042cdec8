//! The end-to-end tests, linked as one test binary: each module below was a test binary of
//! its own, and 23 copies of the whole crate took most of `target/` (CI ran out of disk) and
//! of the link time. `tests/blob_memory.rs` stays a binary of its own because it measures
//! the peak memory of its process. Run one area with a filter, e.g.
//! `cargo test --test e2e ytt_conformance::`.

#[path = "../support/mod.rs"]
mod support;
#[path = "../support_bundle/mod.rs"]
mod support_bundle;

mod bundle_describe;
mod bundle_lockfiles;
mod bundle_push_pull;
mod bundle_registry;
mod bundle_tar_conformance;
mod cli_errors;
mod cli_image;
mod cli_image_tar;
mod cli_process;
mod copy_cli;
mod copy_errors;
mod copy_faults;
mod copy_imgpkg_fixtures;
mod copy_layout_tar;
mod copy_registry;
mod copy_requests;
mod copy_resume_session;
mod copy_shards;
mod copy_support;
mod copy_tags;
mod kapp_controller_selection;
mod layout;
mod lock;
mod package_consume;
mod package_release;
mod package_repository;
mod package_templates;
mod package_validation;
mod pinniped_example;
mod registry_auth;
mod registry_env;
mod registry_faults;
mod registry_harness;
mod registry_interop;
mod registry_plain;
mod registry_tls;
mod tarball;
mod ytt_cmd_source_audit;
mod ytt_conformance;
mod ytt_data_values_env;
mod ytt_data_values_errors;
mod ytt_data_values_sources;
mod ytt_docs_examples;
mod ytt_docs_examples_b;
mod ytt_docs_examples_c;
mod ytt_emitter_audit;
mod ytt_fragments_audit;
mod ytt_issue_reports;
mod ytt_issue_reports_b;
mod ytt_issue_reports_c;
mod ytt_keys_strict;
mod ytt_known_gaps;
mod ytt_language;
mod ytt_layers;
mod ytt_library_values_audit;
mod ytt_limits;
mod ytt_many_files;
mod ytt_modules_audit;
mod ytt_node_identity;
mod ytt_node_sugar;
mod ytt_openapi_audit;
mod ytt_output_pos;
mod ytt_output_roundtrip;
mod ytt_overlay_forms;
mod ytt_overlay_semantics;
mod ytt_overlay_source_audit;
mod ytt_real_world;
mod ytt_real_world_b;
mod ytt_real_world_c;
mod ytt_real_world_d;
mod ytt_real_world_e;
mod ytt_real_world_f;
mod ytt_real_world_g;
mod ytt_real_world_h;
mod ytt_real_world_i;
mod ytt_real_world_j;
mod ytt_real_world_k;
mod ytt_real_world_l;
mod ytt_real_world_m;
mod ytt_real_world_n;
mod ytt_real_world_o;
mod ytt_real_world_p;
mod ytt_real_world_q;
mod ytt_real_world_r;
mod ytt_real_world_s;
mod ytt_schema;
mod ytt_schema_audit_b;
mod ytt_schema_errors;
mod ytt_schema_source_audit;
mod ytt_source_audit;
mod ytt_source_audit_b;
mod ytt_source_audit_c;
mod ytt_source_sweep_core;
mod ytt_source_sweep_lib;
mod ytt_starlark_builtins;
mod ytt_starlark_library;
mod ytt_starlark_runtime;
mod ytt_starlark_statements;
mod ytt_template_errors;
mod ytt_text_templates_audit;
mod ytt_workspace_source_audit;
mod ytt_yamlmeta_audit;

/// A test file added to this folder runs only once it is declared above; Cargo would
/// otherwise skip it without a word.
#[test]
fn every_file_in_this_folder_is_a_module_of_this_binary() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e");
    let main = include_str!("main.rs");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(module) = name.strip_suffix(".rs")
            && module != "main"
            && !main.lines().any(|l| l == format!("mod {module};"))
        {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "tests/e2e/main.rs does not declare {missing:?}"
    );
}
