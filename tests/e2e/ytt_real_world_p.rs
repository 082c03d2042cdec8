//! Constructs met while rendering another round of public ytt directories (the
//! kapp-controller package-repository passes: the clean-up overlay and the rebase rule
//! that decides between two repositories offering the same package; a GitOps
//! generator's environment schemas and Argo CD templates; a Cartographer supply chain fed
//! plain YAML values; an HTTP bridge that calls a Starlark handler with a request decoded
//! from JSON), each reduced to a small case of its own: what ytt 0.48 prints for them.

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

/// The repository clean-up pass reads the packages from standard input: a document
/// overlay whose matcher is `not_op(or_op(...))` with `expects="0+"` removes every other
/// kind (and the same kind at another apiVersion), an `@overlay/remove` with
/// `missing_ok=True` drops `namespace` where present and does nothing elsewhere, a
/// merged annotation keeps its place and takes the overlay's value, and new ones follow.
#[test]
fn the_repository_clean_up_pass_keeps_only_packages_and_stamps_them() {
    let files = [(
        "kapp-controller-clean-up.yml",
        "\n#@ load(\"@ytt:overlay\", \"overlay\")\n\n#@ pkg = overlay.subset({\"apiVersion\":\"data.packaging.carvel.dev/v1alpha1\", \"kind\": \"Package\"})\n#@ pkgm = overlay.subset({\"apiVersion\":\"data.packaging.carvel.dev/v1alpha1\", \"kind\": \"PackageMetadata\"})\n\n#@overlay/match by=overlay.not_op(overlay.or_op(pkg, pkgm)),expects=\"0+\"\n#@overlay/remove\n---\n\n#@overlay/match by=overlay.all,expects=\"0+\"\n---\nmetadata:\n  #! Ensure that all resources do not set some random namespace\n  #! so that all resource end in the PackageRepository's namespace\n  #@overlay/match missing_ok=True\n  #@overlay/remove\n  namespace:\n\n  #@overlay/match missing_ok=True\n  annotations:\n    #@overlay/match missing_ok=True\n    kapp.k14s.io/disable-original: \"\"\n\n    #@overlay/match missing_ok=True\n    kapp.k14s.io/disable-wait: \"\"\n\n    #@overlay/match missing_ok=True\n    packaging.carvel.dev/package-repository-ref: ns/repo\n\n    #@overlay/match missing_ok=True\n    kapp.k14s.io/create-strategy: \"fallback-on-update-or-noop\"\n",
    )];
    let dir = ytt::dir_with(&files);
    let out = ytt::run_in(
        dir.path(),
        &["-f", "-", "-f", "kapp-controller-clean-up.yml"],
        "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: PackageMetadata\nmetadata:\n  name: pkg.test\n  namespace: elsewhere\nspec:\n  displayName: Test\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: stray\n---\napiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: pkg.test.1.0.0\n  annotations:\n    kapp.k14s.io/disable-wait: \"keep\"\nspec:\n  refName: pkg.test\n---\napiVersion: data.packaging.carvel.dev/v1alpha2\nkind: Package\nmetadata:\n  name: future\n",
    );
    assert_eq!(out, (0, "apiVersion: data.packaging.carvel.dev/v1alpha1\nkind: PackageMetadata\nmetadata:\n  name: pkg.test\n  annotations:\n    kapp.k14s.io/disable-original: \"\"\n    kapp.k14s.io/disable-wait: \"\"\n    packaging.carvel.dev/package-repository-ref: ns/repo\n    kapp.k14s.io/create-strategy: fallback-on-update-or-noop\nspec:\n  displayName: Test\n---\napiVersion: data.packaging.carvel.dev/v1alpha1\nkind: Package\nmetadata:\n  name: pkg.test.1.0.0\n  annotations:\n    kapp.k14s.io/disable-wait: \"\"\n    kapp.k14s.io/disable-original: \"\"\n    packaging.carvel.dev/package-repository-ref: ns/repo\n    kapp.k14s.io/create-strategy: fallback-on-update-or-noop\nspec:\n  refName: pkg.test\n".to_string(), String::new()));
}

/// A supply chain whose values come from a plain YAML file (`--data-values-file`):
/// top-level `x or assert.fail(...)` statements pass, `"key" in struct` chooses between
/// an `if` and an `elif` (neither applies when the secret name is empty), `if/end` items
/// nest inside an `if` block, a struct value prints as a map, a key left empty after a
/// trailing space is null, and a literal block's whitespace-only lines come out empty.
#[test]
fn a_supply_chain_picks_its_params_by_key_presence_in_plain_values() {
    let files = [
        (
            "config/supply-chain.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:assert\", \"assert\")\n\n#@ data.values.registry.server or assert.fail(\"missing registry.server\")\n#@ data.values.supported_workloads or assert.fail(\"missing supported_workloads\")\n#@ len(data.values.supported_workloads) or assert.fail(\"one or more supported_workloads should be supplied\")\n\n#@ def publisher_sa_name():\n#@   if hasattr(data.values.scanning.service_account, \"publisher\"):\n#@     return data.values.scanning.service_account.publisher\n#@   end\n#@   return data.values.service_account\n#@ end\n\n---\napiVersion: carto.run/v1alpha1\nkind: ClusterSupplyChain\nmetadata:\n  name: source-sign-scan-to-helm\nspec:\n  selectorMatchExpressions:\n    - key: 'apps.tanzu.vmware.com/workload-type'\n      operator: In\n      values:\n      #@ for supported_workload in data.values.supported_workloads:\n      - #@ supported_workload.type\n      #@ end\n\n  params:\n    - name: ca_cert_data\n      default: #@ data.values.ca_cert_data\n\n    #@ if \"secretRef\" in data.values.maven.repository and \"name\" in data.values.maven.repository.secretRef and data.values.maven.repository.secretRef.name != \"\":\n    - name: maven_repository_secret_name\n      value: #@ data.values.maven.repository.secretRef.name\n    #@ elif \"secret_name\" in data.values.maven.repository:\n    #! NOTE: deprecated\n    - name: maven_repository_secret_name\n      value: #@ data.values.maven.repository.secret_name\n    #@ end\n\n    - name: gitops_branch\n      default: #@ data.values.gitops.branch\n    #@ if/end data.values.gitops.repository_prefix:\n    - name: gitops_repository_prefix\n      default: #@ data.values.gitops.repository_prefix\n    #@ if data.values.gitops.pull_request:\n    #@ if/end data.values.gitops.pull_request.server_kind:\n    - name: gitops_server_kind\n      default: #@ data.values.gitops.pull_request.server_kind\n    #@ if/end \"commit_branch\" in data.values.gitops.pull_request:\n    - name: gitops_commit_branch\n      default: #@ data.values.gitops.pull_request.commit_branch\n    #@ end\n    - name: image_scanning_service_account_publisher\n      value: #@ publisher_sa_name()\n    - name: image_scanning_cli\n      value: #@ data.values.image_scanning_cli\n    - name: image_scanning_workspace_bindings\n      value: #@ data.values.scanning.workspace.bindings\n\n  resources:\n  - name: image-provider\n    params:\n      - name: registry\n        value: #@ data.values.registry\n      - name: docker_build_extra_args\n        default: []\n",
        ),
        (
            "config/templates/task.yaml",
            "#@ load(\"@ytt:data\", \"data\")\n\n---\napiVersion: tekton.dev/v1beta1\nkind: Task\nmetadata:\n  name: helm-writer\nspec:\n  description: |-\n    A task that packages and publishes a helm chart.\n  params:\n    - name: source-url\n      type: string\n      description: \n  steps:\n    - name: tools\n      env:      \n      - name: \"YQ_VERSION\"\n        value: \"v4.40.5\"\n      script: |-\n        #!/usr/bin/env bash\n        set -o errexit\n\n        export HELM_INSTALL_DIR=\"/tools\"\n    - name: helm-publish\n      script: |-\n        #!/usr/bin/env bash\n        \n        set -o xtrace\n        echo $(params.image)\n        \n        for chart in $(find ./helm -name 'Chart.yaml'); do\n          chart_tgz=$chart_name-$chart_version.tgz\n        done\n  volumes:\n    - name: source-dir\n      emptyDir: {}\n",
        ),
        (
            "supply-chain-values.yaml",
            "label_propagation_exclusions: [\"kapp.k14s.io/app\", \"kapp.k14s.io/association\"]\nca_cert_data: \"\"\nregistry:\n  ca_cert_data: \"\"\n  server: cxscssa.azurecr.io\n  repository: tap-build/workloads\nimage_scanning_cli:\n  image: cxscssa.azurecr.io/tap-1-7-0/tap-packages@sha256:675673a6d495d6f6a688497b754cee304960d9ad56e194cf4f4ea6ab53ca71d6\ngitops:\n  ssh_secret: \"\"\n  server_address:\n  branch: \"\"\n  repository_prefix:\n  pull_request:\n    server_kind:\n    commit_branch: \"\"\n    pull_request_title:\n\nscanning:\n  service_account:\n    publisher: default\n  workspace:\n    bindings: []\n\nservice_account: default\n\nsupported_workloads:\n- type: helm\n  cluster_config_template_name: config-template\nmaven:\n  repository:\n    url: \"https://repo.maven.apache.org/maven2\"\n    secretRef:\n      name: \"\"\n",
        ),
    ];
    assert_eq!(
        ytt::render(
            &files,
            &[
                "-f",
                "config/supply-chain.yaml",
                "-f",
                "config/templates",
                "--data-values-file",
                "supply-chain-values.yaml",
            ]
        )
        .unwrap(),
        "apiVersion: carto.run/v1alpha1\nkind: ClusterSupplyChain\nmetadata:\n  name: source-sign-scan-to-helm\nspec:\n  selectorMatchExpressions:\n  - key: apps.tanzu.vmware.com/workload-type\n    operator: In\n    values:\n    - helm\n  params:\n  - name: ca_cert_data\n    default: \"\"\n  - name: gitops_branch\n    default: \"\"\n  - name: gitops_commit_branch\n    default: \"\"\n  - name: image_scanning_service_account_publisher\n    value: default\n  - name: image_scanning_cli\n    value:\n      image: cxscssa.azurecr.io/tap-1-7-0/tap-packages@sha256:675673a6d495d6f6a688497b754cee304960d9ad56e194cf4f4ea6ab53ca71d6\n  - name: image_scanning_workspace_bindings\n    value: []\n  resources:\n  - name: image-provider\n    params:\n    - name: registry\n      value:\n        ca_cert_data: \"\"\n        server: cxscssa.azurecr.io\n        repository: tap-build/workloads\n    - name: docker_build_extra_args\n      default: []\n---\napiVersion: tekton.dev/v1beta1\nkind: Task\nmetadata:\n  name: helm-writer\nspec:\n  description: A task that packages and publishes a helm chart.\n  params:\n  - name: source-url\n    type: string\n    description: null\n  steps:\n  - name: tools\n    env:\n    - name: YQ_VERSION\n      value: v4.40.5\n    script: |-\n      #!/usr/bin/env bash\n      set -o errexit\n\n      export HELM_INSTALL_DIR=\"/tools\"\n  - name: helm-publish\n    script: |-\n      #!/usr/bin/env bash\n\n      set -o xtrace\n      echo $(params.image)\n\n      for chart in $(find ./helm -name 'Chart.yaml'); do\n        chart_tgz=$chart_name-$chart_version.tgz\n      done\n  volumes:\n  - name: source-dir\n    emptyDir: {}\n"
    );
}
