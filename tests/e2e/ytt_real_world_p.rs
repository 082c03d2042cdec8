//! Constructs met while rendering another round of public ytt directories (the
//! kapp-controller rebase rule that decides between two package repositories offering
//! the same package, a GitOps generator's environment schemas and Argo CD templates, an
//! HTTP bridge that calls a Starlark handler with a request decoded from JSON), each
//! reduced to a small case of its own: what ytt 0.48 prints for them.

use crate::support::ytt;

/// The rebase overlay: helper functions at top level, then a document inside an `if`
/// whose `#@ elif` lines close the inner `if` (ytt re-indents Starlark by its block
/// keywords, not by the spaces after `#@`).
const REBASE: &str = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:yaml\", \"yaml\")\n#@ load(\"@ytt:json\", \"json\")\n#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:struct\", \"struct\")\n\n#@ def get_rev(annotations):\n#@   if hasattr(annotations, \"packaging.carvel.dev/revision\"):\n#@     return [int(x) for x in annotations[\"packaging.carvel.dev/revision\"].split('.')]\n#@   else:\n#@     return [-1]\n#@   end\n#@ end\n\n#! return 0 iff eq\n#@ def cmp_rev(r1, r2):\n#@   size = min(len(r1), len(r2))\n#@   for i in range(size):\n#@     if r1[i] > r2[i]:\n#@        return 1\n#@     elif r1[i] < r2[i]:\n#@        return -1\n#@     end\n#@   end\n#@   return len(r1) - len(r2)\n#@ end\n\n#@ def filter(d, s):\n#@   return {x: v for x, v in d.items() if not x in s}\n#@ end\n\n#@ def annotations_are_identical(existing_anns, new_anns):\n#@   carvel_anns = set([\"kapp.k14s.io/disable-original\",\n#@                      \"kapp.k14s.io/disable-wait\",\n#@                      \"packaging.carvel.dev/package-repository-ref\",\n#@                      \"kapp.k14s.io/identity\",\n#@                      \"kapp.k14s.io/create-strategy\"])\n#@   return filter(existing_anns, carvel_anns) == filter(new_anns, carvel_anns)\n#@ end\n\n#@ def labels_are_identical(existing_labels, new_labels):\n#@   carvel_labels = set([\"kapp.k14s.io/app\", \"kapp.k14s.io/association\"])\n#@   return filter(existing_labels, carvel_labels) == filter(new_labels, carvel_labels)\n#@ end\n#@\n#@ def specs_are_identical(existing_spec, new_spec):\n#@   if str(new_spec) == str(existing_spec):\n#@     return True, \"\"\n#@   end\n#@\n#!   the rest of this method is to help make a better error message\n#@   ex = existing_spec\n#@   nw = new_spec\n#@\n#@   for attr in nw.keys():\n#@     if not attr in ex:\n#@       return False, \"adding spec.\"+attr\n#@     end\n#@   end\n#@\n#@   for attr in ex.keys():\n#@     if not attr in nw:\n#@       return False, \"missing spec.\" + attr\n#@     end\n#@     if str(nw[attr]) != str(ex[attr]):\n#@       return False, \"mismatch in spec.\" + attr\n#@     end\n#@   end\n#@   return False, \"mismatch in unknown location\"\n#@ end\n#@\n#@ def is_identical(existing, new):\n#@   eq, reason = specs_are_identical(struct.decode(existing.spec), struct.decode(new.spec))\n#@   if not eq:\n#@     return False, reason\n#@   end\n#@   if not labels_are_identical(struct.decode(existing.metadata.labels), struct.decode(new.metadata.labels)):\n#@     return False, \"mismatch in metadata.labels\"\n#@   end\n#@   if not annotations_are_identical(struct.decode(existing.metadata.annotations), struct.decode(new.metadata.annotations)):\n#@     return False, \"mismatch in metadata.annotations\"\n#@   end\n#@\n#@   return True, \"\"\n#@ end\n\n#@ new_owner = data.values.new.metadata.annotations[\"packaging.carvel.dev/package-repository-ref\"]\n#@ if 'packaging.carvel.dev/package-repository-ref' in data.values.existing.metadata.annotations:\n#@   existing_owner = data.values.existing.metadata.annotations[\"packaging.carvel.dev/package-repository-ref\"]\n#@ else:\n#@   existing_owner = new_owner\n#@ end\n#@\n#@ if new_owner != existing_owner:\n#@   identical, reason = is_identical(data.values.existing, data.values.new)\n#@   if identical:\n#@overlay/match by=overlay.all\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  annotations:\n    #@overlay/match missing_ok=True\n    kapp.k14s.io/noop: \"\"\n#@ elif cmp_rev(get_rev(data.values.existing.metadata.annotations), get_rev(data.values.new.metadata.annotations)) > 0:\n#@overlay/match by=overlay.all\n---\nmetadata:\n  #@overlay/match missing_ok=True\n  annotations:\n    #@overlay/match missing_ok=True\n    kapp.k14s.io/noop: \"\"\n#@   elif cmp_rev(get_rev(data.values.existing.metadata.annotations), get_rev(data.values.new.metadata.annotations)) < 0:\n#@     print(\"replacing existing older rev with newer rev\")\n#@   else:\n#@     msg = \"Error: Conflicting Resources: \" + data.values.existing.kind + \"/\" + data.values.existing.metadata.name + \" is already present but not identical (\" + reason +\")\"\n#@     print(msg)\n#@     fail(msg)\n#@   end\n#@ end\n";

/// The resource the rule overlays.
const PACKAGE: &str = "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: pkg.test.carvel.dev.1.0.0\nspec:\n  version: 1.0.0\n";

/// Data values for the rule: the existing and the new package, with their repository
/// owners, revisions and specs.
fn rebase_values(existing_rev: &str, new_rev: &str, new_extra: &str) -> String {
    format!(
        "#@data/values\n---\nexisting:\n  kind: Package\n  metadata:\n    name: pkg.test.1.0.0\n    annotations:\n      packaging.carvel.dev/package-repository-ref: ns/repo-a\n      packaging.carvel.dev/revision: \"{existing_rev}\"\n      kapp.k14s.io/identity: abc\n    labels:\n      kapp.k14s.io/app: \"123\"\n  spec:\n    refName: pkg.test\n    version: 1.0.0\nnew:\n  kind: Package\n  metadata:\n    name: pkg.test.1.0.0\n    annotations:\n      packaging.carvel.dev/package-repository-ref: ns/repo-b\n      packaging.carvel.dev/revision: \"{new_rev}\"\n    labels:\n      kapp.k14s.io/app: \"456\"\n  spec:\n    refName: pkg.test\n    version: 1.0.0\n{new_extra}"
    )
}

/// Runs the rule over the package with the given values.
fn rebase(values: &str) -> (i32, String, String) {
    ytt::run_binary(
        &[
            ("overlay.yml", REBASE),
            ("res.yml", PACKAGE),
            ("values.yml", values),
        ],
        &["-f", "."],
    )
}

/// A struct from `data.values` answers `in` by key (ytt's `StarlarkStruct.Get` makes it
/// a Starlark mapping), `struct.decode` gives dicts that a dict comprehension filters by
/// a `set`, and dicts compare with `==` and by `str()`. Identical packages from two
/// owners get the noop annotation.
#[test]
fn the_rebase_rule_marks_an_identical_package_from_another_repository_noop() {
    let (code, stdout, stderr) = rebase(&rebase_values("1.2", "1.2", ""));
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(
        stdout,
        "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: pkg.test.carvel.dev.1.0.0\n  annotations:\n    kapp.k14s.io/noop: \"\"\nspec:\n  version: 1.0.0\n"
    );
}

/// When the specs differ the revisions decide: `[int(x) for x in "1.10".split('.')]`
/// compares numerically, so an existing 1.2 is older than a new 1.10 and the rule only
/// calls `print`, which ytt's thread (no `Print` hook set) leaves to starlark-go's
/// default, a line on standard error; the resource passes unchanged. An existing 1.2
/// against a new 1.1 is newer: the `elif` at the inner level applies the noop overlay.
#[test]
fn the_rebase_rule_compares_revisions_numerically_when_specs_differ() {
    let extra = "    extra: [1, {a: b}]\n";
    let (code, stdout, stderr) = rebase(&rebase_values("1.2", "1.10", extra));
    assert_eq!(code, 0);
    assert_eq!(stderr, "replacing existing older rev with newer rev\n");
    assert_eq!(stdout, PACKAGE);
    let (code, stdout, _) = rebase(&rebase_values("1.2", "1.1", extra));
    assert_eq!(code, 0);
    assert!(
        stdout.contains("  annotations:\n    kapp.k14s.io/noop: \"\"\n"),
        "{stdout}"
    );
}

/// Equal revisions with different specs reach `fail(msg)`: the message names the first
/// key the new spec adds (the helper walks `nw.keys()` first), printed before the
/// failure, and the error shows the `fail` line of the top-level code.
#[test]
fn the_rebase_rule_fails_on_a_conflicting_package_with_the_same_revision() {
    let (code, stdout, stderr) = rebase(&rebase_values("1.2", "1.2", "    extra: [1, {a: b}]\n"));
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert_eq!(
        stderr,
        "Error: Conflicting Resources: Package/pkg.test.1.0.0 is already present but not identical (adding spec.extra)\nstrake: error: \n- fail: Error: Conflicting Resources: Package/pkg.test.1.0.0 is already present but not identical (adding spec.extra)\n    in <toplevel>\n      overlay.yml:117 | #@     fail(msg)\n"
    );
}

/// The generator's files: a schema whose `id` is nullable and validated, an array item
/// whose first key follows `- #! comment`, a second schema document that adds its keys
/// with `@overlay/match-child-defaults missing_ok=True`, environment values, Argo CD
/// templates with document-level `if/end`, and a library that turns a YAML fragment into
/// a struct through `struct.encode(yaml.decode(yaml.encode(fragment())))`.
fn myks_files() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "00-data-schema.ytt.yaml",
            "#! This file define a schema for all ytt data files.\n\n#@data/values-schema\n---\n#! Add here any application-specific data.\napplication: {}\nenvironment:\n  #! Unique identifier of the environment, required by myks.\n  #@schema/validation min_len=1\n  #@schema/nullable\n  id: \"\"\n  #! List of applications to be deployed in the environment, required by myks.\n  applications:\n    - #! Prototype of the application, required by myks.\n      #@schema/validation min_len=1\n      proto: \"\"\n      #! Name of the application, used by myks.\n      name: \"\"\nhelm:\n  includeCRDs: true\n  kubeVersion: \"\"\nmyks:\n  applicationNames: [\"\"]\n  searchPaths: [\"\"]\n",
        ),
        (
            "01-argocd-schema.ytt.yaml",
            "#@data/values-schema\n#@overlay/match-child-defaults missing_ok=True\n---\nargocd:\n  namespace: argocd\n  app:\n    prefix: \"\"\n    name: \"\"\n    finalizers: [\"\"]\n    source:\n      path: \"\"\n      plugin:\n        name: \"\"\n      repoURL: \"\"\n      targetRevision: \"\"\n    destination:\n      name: \"\"\n      server: \"\"\n      namespace: \"\"\n  env:\n    prefix: \"env-\"\n    name: \"\"\n    generateSecret: false\n  project:\n    enabled: true\n    prefix: \"\"\n    name: \"\"\n    destination:\n      name: \"\"\n      server: \"\"\n      namespace: \"\"\n",
        ),
        (
            "10-env-data.ytt.yaml",
            "#@data/values\n---\nenvironment:\n  id: mykso-dev\n  applications:\n    - proto: argocd\n    - proto: httpbingo\n      name: httpbin\nargocd:\n  app:\n    name: httpbin\n    source:\n      path: rendered/envs/mykso-dev/httpbin\n      plugin: {name: argocd-vault-plugin}\n",
        ),
        (
            "application.ytt.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n\n#@ a = data.values.argocd\n#@ e = data.values.environment\n\n#@ app_name = a.app.prefix + a.app.name\n#@ env_name = a.env.prefix + (a.env.name or e.id)\n#@ project_name = a.project.prefix + (a.env.name or e.id)\n\n---\napiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: #@ env_name + \"-\" + app_name\n  namespace: #@ a.namespace\n  finalizers: #@ a.app.finalizers or []\nspec:\n  project: #@ project_name\n  destination:\n    #@ if a.app.destination.server:\n    server: #@ a.app.destination.server\n    #@ else:\n    name: #@ a.app.destination.name or env_name\n    #@ end\n    namespace: #@ a.app.destination.namespace or a.app.name\n  source:\n    path: #@ a.app.source.path\n    plugin: #@ a.app.source.plugin\n    repoURL: #@ a.app.source.repoURL\n  syncPolicy:\n    syncOptions:\n      - CreateNamespace=true\n",
        ),
        (
            "environment.ytt.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n\n#@ a = data.values.argocd\n#@ e = data.values.environment\n\n#@ env_name = a.env.prefix + (a.env.name or e.id)\n#@ project_name = a.project.name or a.project.prefix + (a.env.name or e.id)\n\n#@ if/end a.project.enabled:\n---\napiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata:\n  name: #@ project_name\n  #! Finalizer that ensures that project is not deleted\n  finalizers:\n    - resources-finalizer.argocd.argoproj.io\nspec:\n  description: #@ 'Project for \"{}\" environment'.format(env_name)\n  clusterResourceWhitelist:\n    - group: '*'\n      kind: '*'\n  destinations:\n    - namespace: #@ a.project.destination.namespace\n      #@ if a.project.destination.server:\n      server: #@ a.project.destination.server\n      #@ else:\n      name: #@ a.project.destination.name or env_name\n      #@ end\n\n#@ if/end a.env.generateSecret:\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: #@ env_name\n",
        ),
        (
            "lib/env_data.lib.yml",
            "\n#@ def _env_data():\nenvironment:\n  id: mykso-dev\n  applications:\n  - proto: argocd\n    name: null\nhelm: {includeCRDs: true}\n\n#@ end\n\n#@ load(\"@ytt:struct\", \"struct\")\n#@ load(\"@ytt:yaml\", \"yaml\")\n#@ env_data = struct.encode(yaml.decode(yaml.encode(_env_data())))\n",
        ),
        (
            "uses-lib.ytt.yaml",
            "#@ load(\"lib/env_data.lib.yml\", \"env_data\")\n---\nkind: MyksTest\nid: #@ env_data.environment.id\napps: #@ [a.proto for a in env_data.environment.applications]\nnames: #@ [a.name for a in env_data.environment.applications]\nhelm: #@ env_data.helm\n",
        ),
    ]
}

/// A second schema document merges into the first (ytt's schema overlay with the
/// document's match-child-defaults), its array default is empty, so `finalizers or []`
/// gives `[]`; `if/end` on `---` drops the secret document; a `load` after a `def` at
/// top level is allowed, and a fragment's `null` survives the encode/decode round trip.
#[test]
fn a_gitops_environment_renders_its_argo_cd_documents_and_library_data() {
    assert_eq!(
        ytt::render(&myks_files(), &["-f", "."]).unwrap(),
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: env-mykso-dev-httpbin\n  namespace: argocd\n  finalizers: []\nspec:\n  project: mykso-dev\n  destination:\n    name: env-mykso-dev\n    namespace: httpbin\n  source:\n    path: rendered/envs/mykso-dev/httpbin\n    plugin:\n      name: argocd-vault-plugin\n    repoURL: \"\"\n  syncPolicy:\n    syncOptions:\n    - CreateNamespace=true\n---\napiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata:\n  name: mykso-dev\n  finalizers:\n  - resources-finalizer.argocd.argoproj.io\nspec:\n  description: Project for \"env-mykso-dev\" environment\n  clusterResourceWhitelist:\n  - group: '*'\n    kind: '*'\n  destinations:\n  - namespace: \"\"\n    name: env-mykso-dev\n---\nkind: MyksTest\nid: mykso-dev\napps:\n- argocd\nnames:\n- null\nhelm:\n  includeCRDs: true\n"
    );
}

/// `@schema/nullable` makes a validated key skip its rules when null (the validation's
/// `when_null_skip` defaults to true on a nullable node), so only the array item added
/// by `--data-value-yaml` fails: its `proto` was filled from the schema default, whose
/// position ytt reports as where the value came from.
#[test]
fn a_nullable_validated_key_skips_its_rules_when_null() {
    assert_eq!(
        ytt::failure_of(
            &myks_files(),
            &[
                "-f",
                ".",
                "--data-value-yaml",
                "environment.id=null",
                "--data-value-yaml",
                "environment.applications=[{name: x}]",
            ]
        ),
        "strake: error: Validating final data values:\n  environment.applications[0].proto\n    from: 00-data-schema.ytt.yaml:16\n    - must be: length >= 1 (by: 00-data-schema.ytt.yaml:15)\n      found: length = 0\n"
    );
}

/// A handler loaded under another name (`load(path, handler="get_user")`) is called with
/// `**` of a struct: ytt's `StarlarkStruct` is an iterable mapping, so its keys become
/// keyword arguments; `template.replace` splices the returned dict into the document.
#[test]
fn a_handler_is_called_with_keyword_arguments_from_a_decoded_struct() {
    let handler = "def get_user(RequestMethod, QueryParams, RequestBody=None):\n  return {\"method\": RequestMethod, \"id\": QueryParams[\"id\"][0], \"body\": RequestBody}\nend\n";
    let body =
        "{\"RequestMethod\": \"GET\", \"QueryParams\": {\"id\": [\"42\"]}, \"RequestBody\": null}";
    let main = "\n#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:json\", \"json\")\n#@ load(\"@ytt:struct\", \"struct\")\n#@ load(\"@ytt:template\", \"template\")\n#@ load(\"handlers/users.star\", handler=\"get_user\")\n---\n_: #@ template.replace(handler(**struct.encode(json.decode(data.read(\"__body__.yaml\")))))\n";
    let files = [
        ("handlers/users.star", handler),
        ("__body__.yaml", body),
        ("main.yml", main),
    ];
    assert_eq!(
        ytt::render(
            &files,
            &["-f", ".", "--file-mark", "__body__.yaml:type=data"]
        )
        .unwrap(),
        "method: GET\nid: \"42\"\nbody: null\n"
    );
}
