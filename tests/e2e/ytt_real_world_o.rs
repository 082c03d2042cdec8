//! Constructs met while rendering another round of public ytt directories (Tanzu
//! framework addons for an Avi load-balancer operator and feature gates, Google Cloud
//! alert and organisation-policy generators, an Educates bundle workshop, community
//! packages for vSphere CPI, Knative Serving and an application toolkit, a GitHub
//! workflow generator), each reduced to a small case of its own: what ytt 0.48 prints
//! for them.

use crate::support::ytt;

/// Renders `files` with `-f .`.
fn render(files: &[(&str, &str)]) -> String {
    ytt::render(files, &["-f", "."]).unwrap()
}

/// ytt's `Parser.assignComments` gives a comment to the first node on or below its line;
/// a document's map has no position of its own, so `#@overlay/replace ` (trailing space
/// and all) written under `---` belongs to the first map item and replaces only it: the
/// other items still merge. A `#@overlay/match missing_ok=True` at column 0 inside an
/// `if` belongs to the deeper key below it. Written above `---`, `@overlay/replace`
/// replaces the whole document.
#[test]
fn a_replace_written_under_the_document_start_replaces_only_the_first_item() {
    let base = "---\napiVersion: v1\nkind: ADC\nmetadata:\n    name: all\nspec:\n    cloud: Default\n    extra:\n        sync: false\n---\nkind: Secret\nmetadata:\n    name: ca\ndata:\n    ca: \"\"\n";
    let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ cni = \"antrea\"\n\n#@overlay/match by=overlay.subset({\"kind\": \"ADC\"})\n---\n#@overlay/replace \napiVersion: v2\nkind: ADC\nspec:\n    cloud: custom\n    extra:\n#@ if cni:  \n#@overlay/match missing_ok=True\n        cniPlugin: #@ cni\n#@ end        \n        sync: true\n\n#@overlay/match by=overlay.subset({\"kind\": \"Secret\"})\n#@overlay/replace\n---\nkind: Secret\ndata:\n    ca: Q0E=\n";
    assert_eq!(
        ytt::render(
            &[("base.yml", base), ("ov.yml", overlay)],
            &["-f", "base.yml", "-f", "ov.yml"]
        )
        .unwrap(),
        "apiVersion: v2\nkind: ADC\nmetadata:\n  name: all\nspec:\n  cloud: custom\n  extra:\n    sync: true\n    cniPlugin: antrea\n---\nkind: Secret\ndata:\n  ca: Q0E=\n"
    );
}

/// An alert template wraps every item of its implicit first document in one `if`; when
/// the bound method says no, the document is an empty map and ytt's
/// `DocumentSet.AsBytesWithPrinter` skips it (it skips injected and empty documents).
/// The method indexes `data.values` with `[]` by a computed name, and `dir()` of a
/// struct lists its keys sorted (Starlark's `dir` sorts `AttrNames`), a dashed one
/// reached with `getattr`.
#[test]
fn an_alert_whose_bound_method_says_no_prints_no_document() {
    let lib = "load(\"@ytt:data\", \"data\")\nload(\"@ytt:struct\", \"struct\")\n\ndef include(item, bundles):\n  if item.generation == \"skip\":\n    return False\n  end\n  for name in dir(bundles):\n    if getattr(bundles, name) and getattr(item.bundles, name):\n      return True\n    end\n  end\n  return False\nend\n\ndef _on(self):\n  return include(data.values[\"alerts\"][self.alert], data.values.bundles)\nend\n\ndef build(alert):\n  return struct.make_and_bind(struct.make(alert=alert), on=_on)\nend\n";
    let values = "#@data/values\n---\nbundles:\n  pci-dss: true\n  cis: false\nalerts:\n  owner:\n    generation: default\n    bundles: {pci-dss: false, cis: true}\n  roles:\n    generation: default\n    bundles: {pci-dss: true, cis: false}\n";
    let alert = |name: &str, title: &str| {
        format!(
            "#@ load(\"/lib.star\", \"build\")\n#@ alert = build(\"{name}\")\n\n#@ if alert.on():\ndisplayName: {title}\n#@ end\n"
        )
    };
    let owner = alert("owner", "Owner");
    let roles = alert("roles", "Roles");
    let names = "#@ load(\"@ytt:data\", \"data\")\nnames: #@ dir(data.values.bundles)\ndash: #@ getattr(data.values.bundles, \"pci-dss\")\n";
    let files = [
        ("lib.star", lib),
        ("values.yml", values),
        ("n.yml", names),
        ("owner.yml", owner.as_str()),
        ("roles.yml", roles.as_str()),
    ];
    assert_eq!(
        render(&files),
        "names:\n- cis\n- pci-dss\ndash: true\n---\ndisplayName: Roles\n"
    );
}

/// A helper that loops without finding its item falls off its end and returns `None`,
/// which the `if` around the array item skips; `a and "Always" or "IfNotPresent"` picks
/// by truthiness, and `"{}:{}".format(user, None)` writes Starlark's `None`.
#[test]
fn a_helper_that_finds_nothing_returns_none_and_the_item_is_skipped() {
    let helpers = "load(\"@ytt:data\", \"data\")\nload(\"@ytt:base64\", \"base64\")\n\ndef image_reference(name):\n    for item in data.values.images:\n      if item.name == name:\n        return item.image\n      end\n    end\nend\n\ndef pull_policy(image):\n  tag = image.split(\":\")\n  always = len(tag) <= 1 or tag[-1] in [\"latest\", \"main\"]\n  return always and \"Always\" or \"IfNotPresent\"\nend\n\ndef auth(user, password):\n  return base64.encode(\"{}:{}\".format(user, password))\nend\n";
    let values = "#@data/values\n---\nuser: bob\npassword: null\nimages:\n#! - name: operator\n- name: portal\n  image: portal:2104\n- name: base\n  image: base:latest\nprepull: [\"base\", \"missing\", \"portal\"]\n";
    let tpl = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"/helpers.star\", \"image_reference\", \"pull_policy\", \"auth\")\n\n#@ if data.values.prepull:\nkind: DaemonSet\ninitContainers:\n#@ prepull = data.values.prepull\n#@ for i in range(len(prepull)):\n#@ image = image_reference(prepull[i])\n#@ if image:\n- name: #@ prepull[i]\n  image: #@ image\n  imagePullPolicy: #@ pull_policy(image)\n#@ end\n#@ end\nauth: #@ auth(data.values.user, data.values.password)\n#@ end\n";
    let files = [
        ("helpers.star", helpers),
        ("values.yml", values),
        ("t.yml", tpl),
    ];
    assert_eq!(
        render(&files),
        "kind: DaemonSet\ninitContainers:\n- name: base\n  image: base:latest\n  imagePullPolicy: Always\n- name: portal\n  image: portal:2104\n  imagePullPolicy: IfNotPresent\nauth: Ym9iOk5vbmU=\n"
    );
}

/// A `.lib.txt` file that opens with a blank line and ends in `(@ end -@)` without a
/// newline: only the function's body is its result, each `-@)` eating the newline after
/// it, so the call gives a multi-line string (printed as a literal block). A `.star`
/// file runs a validation at its top level with the `if` body not indented.
#[test]
fn a_text_library_function_gives_the_lines_its_branches_keep() {
    let conf = "\n(@ def conf(values): -@)\n[Global]\nsecret-name = \"creds\"\n(@ if values.insecure: -@)\ninsecure-flag = \"1\"\n(@ else: -@)\nthumbprint = \"(@=values.thumbprint @)\"\n(@ end -@)\n[VirtualCenter \"(@=values.server @)\"]\n(@ if values.nsxt: -@)\n[NSXT]\ninsecure-flag = \"(@=str(values.insecure).lower() @)\"\n(@ end -@)\n(@ end -@)";
    let star = "load(\"@ytt:data\", \"data\")\nload(\"@ytt:assert\", \"assert\")\n\ndef validate():\n   data.values.server != \"\" or assert.fail(\"server should be provided\")\nend\n\nvalues = data.values\n\nif data.values.nsxt:\nvalidate()\nend\n";
    let tpl = "#@ load(\"/values.star\", \"values\")\n#@ load(\"/conf.lib.txt\", \"conf\")\nkind: ConfigMap\ndata:\n  vsphere.conf: #@ conf(values)\n";
    let values =
        "#@data/values\n---\nserver: vc1\ninsecure: false\nthumbprint: AB:CD\nnsxt: false\n";
    let files = [
        ("conf.lib.txt", conf),
        ("values.star", star),
        ("cm.yml", tpl),
        ("values.yml", values),
    ];
    assert_eq!(
        render(&files),
        "kind: ConfigMap\ndata:\n  vsphere.conf: |\n    [Global]\n    secret-name = \"creds\"\n    thumbprint = \"AB:CD\"\n    [VirtualCenter \"vc1\"]\n"
    );
    let on = ytt::render(
        &files,
        &[
            "-f",
            ".",
            "--data-value-yaml",
            "insecure=true",
            "--data-value-yaml",
            "nsxt=true",
        ],
    )
    .unwrap();
    assert_eq!(
        on,
        "kind: ConfigMap\ndata:\n  vsphere.conf: |\n    [Global]\n    secret-name = \"creds\"\n    insecure-flag = \"1\"\n    [VirtualCenter \"vc1\"]\n    [NSXT]\n    insecure-flag = \"true\"\n"
    );
}

/// A package's `assertions.yaml` holds only comments and `#@` statements: it prints no
/// document, and a failing `assert.fail` is reported at its own code line.
#[test]
fn a_file_of_only_code_lines_prints_nothing_and_fails_at_its_line() {
    let assertions = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:assert\", \"assert\")\n\n#! Assert domain type\n#@ data.values.type==\"real\" or data.values.type==\"nip.io\" or assert.fail(\"type accepted values are: real, nip.io\")\n\n#@ if data.values.type==\"real\":\n#@ data.values.name or assert.fail(\"name needs to be provided if type is real\")\n#@ end\n";
    let values = "#@data/values\n---\ntype: nip.io\nname: \"\"\n";
    let files = [
        ("assertions.yml", assertions),
        ("values.yml", values),
        ("t.yml", "kind: ConfigMap\n"),
    ];
    assert_eq!(render(&files), "kind: ConfigMap\n");
    assert_eq!(
        ytt::failure_of(&files, &["-f", ".", "-v", "type=real"]),
        "strake: error: \n- assert.fail: fail: name needs to be provided if type is real\n    in <toplevel>\n      assertions.yml:8 | #@ data.values.name or assert.fail(\"name needs to be provided if type is real\")\n"
    );
}

/// ytt's `Template.build` text-templates a map item's key whenever
/// `@yaml/text-templated-strings` is in force, even when the item's value is code (the
/// code's result is then left as it is), and the annotation holds for every node below.
#[test]
fn text_templated_strings_template_the_key_of_an_item_whose_value_is_code() {
    let tpl = "#@ name = \"web\"\n#@yaml/text-templated-strings\n(@= name @)-config: #@ {\"a\": \"(@= name @)\"}\n#@yaml/text-templated-strings\nouter:\n  (@= name @)-key:\n  - item-(@= name @)\n  - nested:\n      deep-(@= name @): v-(@= name @)\n  plain: 1\n";
    assert_eq!(
        render(&[("t.yml", tpl)]),
        "web-config:\n  a: (@= name @)\nouter:\n  web-key:\n  - item-web\n  - nested:\n      deep-web: v-web\n  plain: 1\n"
    );
}

/// An overlay adds a templated string under a key that `missing_ok` lets in; the
/// value of `domain-template` is code, so Go-template braces in it stay as given
/// (printed single-quoted, as a plain scalar may not start with `{`).
#[test]
fn a_missing_ok_item_whose_value_is_code_keeps_its_braces() {
    let base =
        "kind: ConfigMap\nmetadata:\n  name: config-network\n  annotations:\n    a: b\ndata: {}\n";
    let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:data\", \"data\")\n\n#@overlay/match by=overlay.subset({\"kind\":\"ConfigMap\", \"metadata\": {\"name\": \"config-network\"}})\n---\nmetadata:\n  annotations:\n    #@overlay/match missing_ok=True\n    kapp.k14s.io/update-strategy: skip\ndata:\n  #@overlay/match missing_ok=True\n  #@yaml/text-templated-strings\n  domain-template: #@ data.values.template\n";
    let values = "#@data/values\n---\ntemplate: \"{{.Name}}.{{.Namespace}}.{{.Domain}}\"\n";
    assert_eq!(
        render(&[("a.yml", base), ("b.yml", overlay), ("v.yml", values)]),
        "kind: ConfigMap\nmetadata:\n  name: config-network\n  annotations:\n    a: b\n    kapp.k14s.io/update-strategy: skip\ndata:\n  domain-template: '{{.Name}}.{{.Namespace}}.{{.Domain}}'\n"
    );
}

/// A meta-package writes each package's values with `yaml.encode` of a data value: an
/// empty map encodes as `{}` and a newline, printed as a literal block; given values
/// (from `--data-values-file`) encode in their order, a multi-line string as `|-`. An
/// `if` around two documents skips both for an excluded package.
#[test]
fn yaml_encode_of_a_package_values_data_value() {
    let exclusions = "load(\"@ytt:data\", \"data\")\nload(\"@ytt:struct\", \"struct\")\n\ndef _is_pkg_enabled(name):\n    return (name not in data.values.excluded_packages)\nend\n\nexclusions = struct.make(\n    is_pkg_enabled=_is_pkg_enabled,\n)\n";
    let values = "#@data/values\n---\nexcluded_packages: []\ncontour: {}\nknative: {}\n";
    let package = |name: &str| {
        format!(
            "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"@ytt:yaml\", \"yaml\")\n#@ load(\"_exclusions.star\", \"exclusions\")\n\n#@ if exclusions.is_pkg_enabled(\"{name}\"):\n\n---\nkind: PackageInstall\nname: {name}\n---\nkind: Secret\nstringData:\n  values.yaml: #@ yaml.encode(data.values.{name})\n\n#@ end\n"
        )
    };
    let contour = package("contour");
    let knative = package("knative");
    let user = "excluded_packages: [\"contour\"]\nknative:\n  domain:\n    type: real\n  list: [1, \"two\", {three: 3}]\n  multi: \"a\\nb\"\n";
    let files = [
        ("_exclusions.star", exclusions),
        ("values.yml", values),
        ("contour.yml", contour.as_str()),
        ("knative.yml", knative.as_str()),
        ("user/values.yml", user),
    ];
    assert_eq!(
        ytt::render(
            &files,
            &[
                "-f",
                "_exclusions.star",
                "-f",
                "values.yml",
                "-f",
                "contour.yml",
                "-f",
                "knative.yml"
            ]
        )
        .unwrap(),
        "kind: PackageInstall\nname: contour\n---\nkind: Secret\nstringData:\n  values.yaml: |\n    {}\n---\nkind: PackageInstall\nname: knative\n---\nkind: Secret\nstringData:\n  values.yaml: |\n    {}\n"
    );
    assert_eq!(
        ytt::render(
            &files,
            &[
                "-f",
                "_exclusions.star",
                "-f",
                "values.yml",
                "-f",
                "contour.yml",
                "-f",
                "knative.yml",
                "--data-values-file",
                "user/values.yml"
            ]
        )
        .unwrap(),
        "kind: PackageInstall\nname: knative\n---\nkind: Secret\nstringData:\n  values.yaml: |\n    domain:\n      type: real\n    list:\n    - 1\n    - two\n    - three: 3\n    multi: |-\n      a\n      b\n"
    );
}

/// A GitHub workflow templated by ytt: go-yaml v2 (which ytt vendors) reads the bare
/// key `on` as the boolean `true`, so ytt prints `true:`. Step functions take
/// `**kwargs`, spliced into `with:` by `template.replace` in call order, and a
/// text-templated block string picks values with `kwargs.get`.
#[test]
fn a_workflow_on_key_is_printed_as_true() {
    let steps = "#@ load(\"@ytt:template\", \"template\")\n\n#@ def checkout(**kwargs):\nname: #@ \"Checkout {} repository\".format(kwargs[\"repository\"] if (kwargs and \"repository\" in kwargs) else \"current\")\nuses: actions/checkout@v2\n#@ if kwargs:\nwith:\n  _: #@ template.replace(kwargs)\n#@ end\n#@ end\n\n#@ def deploy(**kwargs):\nname: deploy\nwith:\n  ref: #@ kwargs.get(\"ref\", \"${{ github.ref }}\")\n  #@yaml/text-templated-strings\n  payload: |\n    {\"package\": \"(@= kwargs[\"package\"] @)\"}\n  production: #@ kwargs[\"environment\"] == \"prod\"\n#@ end\n";
    let workflow = "#@ load(\"lib/steps.lib.yml\", \"checkout\", \"deploy\")\n\n---\nname: PR\non:\n  pull_request:\n    types:\n      - opened\njobs:\n  labeler:\n    runs-on: ubuntu-latest\n    steps:\n      - #@ checkout()\n      - #@ checkout(repository=\"org/other\", token=\"${{ secrets.T }}\")\n      - #@ deploy(environment=\"prod\", package=\"web\")\n";
    assert_eq!(
        render(&[("lib/steps.lib.yml", steps), ("pr.yml", workflow)]),
        "name: PR\ntrue:\n  pull_request:\n    types:\n    - opened\njobs:\n  labeler:\n    runs-on: ubuntu-latest\n    steps:\n    - name: Checkout current repository\n      uses: actions/checkout@v2\n    - name: Checkout org/other repository\n      uses: actions/checkout@v2\n      with:\n        repository: org/other\n        token: ${{ secrets.T }}\n    - name: deploy\n      with:\n        ref: ${{ github.ref }}\n        payload: |\n          {\"package\": \"web\"}\n        production: true\n"
    );
}

/// Feature-gate manager template: `load("helpers.star")` from a subdirectory finds the
/// file beside the template; annotations inside an `if` branch (ignored here, as no
/// overlay applies the file) and an `else:` branch choose between two same-named keys.
#[test]
fn an_else_branch_picks_the_default_of_a_same_named_key() {
    let helpers = "load(\"@ytt:data\", \"data\")\nload(\"@ytt:assert\", \"assert\")\n\ndef port():\n    p = str(data.values.deployment.port)\n    if hasattr(data.values, 'deployment') and p.isdigit():\n        return data.values.deployment.port\n    else:\n        assert.fail(\"Invalid webhook server port!!\")\n    end\nend\n";
    let tpl = "#@ load(\"@ytt:data\", \"data\")\n#@ load(\"helpers.star\", \"port\")\n\nspec:\n  args:\n    - #@ \"--port={}\".format(port())\n  #@ if hasattr(data.values.deployment, 'tolerations') and data.values.deployment.tolerations:\n  #@overlay/match missing_ok=True\n  tolerations: #@ data.values.deployment.tolerations\n  #@ else:\n  tolerations:\n    - effect: NoSchedule\n  #@ end\n";
    let values = "#@data/values\n---\ndeployment:\n  tolerations: []\n  port: 9443\n";
    let files = [
        ("up/helpers.star", helpers),
        ("up/mgr.yml", tpl),
        ("values.yml", values),
    ];
    assert_eq!(
        render(&files),
        "spec:\n  args:\n  - --port=9443\n  tolerations:\n  - effect: NoSchedule\n"
    );
    assert_eq!(
        ytt::failure_of(&files, &["-f", ".", "-v", "deployment.port=94a3"]),
        "strake: error: \n- assert.fail: fail: Invalid webhook server port!!\n    in port\n      9 |         assert.fail(\"Invalid webhook server port!!\")\n    in <toplevel>\n      up/mgr.yml:6 |     - #@ \"--port={}\".format(port())\n"
    );
}

/// ytt's `Template.build` compiles every string under `@yaml/text-templated-strings`
/// (keys too, even when the value is code), and its text scanner refuses an `@)` met
/// outside code: a string holding only a closing directive fails to compile, at the
/// line and column (in characters) ytt's `Parser.parse` counts from the node's line.
#[test]
fn a_lone_closing_directive_in_a_templated_string_fails_to_compile() {
    let fails = |body: &str| ytt::failure_of(&[("d.yml", body)], &["-f", "d.yml"]);
    assert_eq!(
        fails("#@yaml/text-templated-strings\nk: \"é@)\"\n"),
        "strake: error: Compiling YAML template 'd.yml': Unexpected code closing '@)' at line 2 col 3\n    in d.yml:2\n      d.yml:2 | k: \"é@)\"\n"
    );
    assert_eq!(
        fails("---\n#@yaml/text-templated-strings\n\"k@)\": #@ 1\n"),
        "strake: error: Compiling YAML template 'd.yml': Unexpected code closing '@)' at line 3 col 3\n    in d.yml:3\n      d.yml:3 | \"k@)\": #@ 1\n"
    );
    assert_eq!(
        fails("#@yaml/text-templated-strings\nk:\n- |\n  line1\n  x@)\n"),
        "strake: error: Compiling YAML template 'd.yml': Unexpected code closing '@)' at line 4 col 3\n    in d.yml:4\n      d.yml:4 |   line1\n"
    );
    // Without the annotation the string is plain text.
    assert_eq!(
        ytt::render(&[("d.yml", "k: \"é@)\"\n")], &["-f", "d.yml"]).unwrap(),
        "k: é@)\n"
    );
}

/// A cloud-provider package's overlay: an annotation written above an `#@ if` line
/// still belongs to the key below both (ytt's `extractMetas` emits the block code, then
/// the annotation, for that node). `@schema/nullable` keys default to null, so the
/// `if/end ... != None` items drop out and leave an empty map; a `nodeSelector` of
/// `@schema/type any=True` is iterated key by key into text-templated keys.
#[test]
fn nullable_schema_defaults_drop_the_items_their_if_guards() {
    let schema = "#! schema.yaml\n\n#@data/values-schema\n#@schema/desc \"OpenAPIv3 Schema\"\n---\n#@schema/type any=True\nnodeSelector:\ndeployment:\n  #@schema/nullable\n  updateStrategy: \"\"\n  rollingUpdate:\n    #@schema/nullable\n    maxUnavailable: 1\n    #@schema/nullable\n    maxSurge: 0\n";
    let base = "kind: Deployment\nspec:\n  template:\n    spec:\n      containers: []\n";
    let overlay = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ load(\"@ytt:data\", \"data\")\n\n#@overlay/match expects=\"0+\",by=overlay.subset({\"kind\":\"Deployment\"})\n---\nkind: Deployment\nspec:\n  #@ if data.values.deployment.updateStrategy != None:\n  #@overlay/match missing_ok=True\n  strategy:\n    type: #@ data.values.deployment.updateStrategy\n    #@overlay/match missing_ok=True\n    #@ if data.values.deployment.updateStrategy == \"RollingUpdate\":\n    rollingUpdate:\n      #@ if/end data.values.deployment.rollingUpdate.maxUnavailable != None:\n      maxUnavailable: #@ data.values.deployment.rollingUpdate.maxUnavailable\n      #@ if/end data.values.deployment.rollingUpdate.maxSurge != None:\n      maxSurge: #@ data.values.deployment.rollingUpdate.maxSurge\n    #@ end\n  #@ end\n  #@ if data.values.nodeSelector != None:\n  template:\n    spec:\n      #@overlay/match missing_ok=True\n      nodeSelector:\n        #@ for key in data.values.nodeSelector:\n        #@overlay/match missing_ok=True\n        #@yaml/text-templated-strings\n        (@= key @): #@ data.values.nodeSelector[key]\n        #@ end\n  #@ end\n";
    let files = [
        ("schema.yml", schema),
        ("up/deploy.yml", base),
        ("ov/deploy.yml", overlay),
    ];
    assert_eq!(render(&files), base);
    let set = ytt::render(
        &files,
        &[
            "-f",
            ".",
            "-v",
            "deployment.updateStrategy=RollingUpdate",
            "--data-value-yaml",
            "nodeSelector={a: b, \"x/y\": \"\"}",
        ],
    )
    .unwrap();
    assert_eq!(
        set,
        "kind: Deployment\nspec:\n  template:\n    spec:\n      containers: []\n      nodeSelector:\n        a: b\n        x/y: \"\"\n  strategy:\n    type: RollingUpdate\n    rollingUpdate: {}\n"
    );
}

/// An identity package's helper takes a data-value struct as its annotations map and
/// then sets a key on it: Starlark's `setIndex` refuses a value with no `SetKey`, and
/// ytt's struct has none ("struct value does not support item assignment"). With no
/// annotations given, the helper's own dict is filled. The `.star` file loads a
/// `.lib.yaml` for a function before it validates at its top level.
#[test]
fn setting_a_key_on_a_data_value_struct_is_refused() {
    let constants = "#@ load(\"@ytt:data\", \"data\")\n\n#@ def is_dex_required():\n#@   return data.values.identity_management_type == \"ldap\"\n#@ end\n";
    let star = "load(\"@ytt:data\", \"data\")\nload(\"@ytt:assert\", \"assert\")\nload(\"/libs/constants.lib.yaml\", \"is_dex_required\")\n\ndef get_annotations():\n  annotations = {}\n  if hasattr(data.values.dex.service, \"annotations\") and data.values.dex.service.annotations:\n     annotations = data.values.dex.service.annotations\n  end\n  if data.values.provider == \"aws\":\n    annotations[\"aws-load-balancer-backend-protocol\"] = \"ssl\"\n  end\n  return annotations\nend\n\nvalues = data.values\n\nif is_dex_required():\n  data.values.role in (\"management\", \"workload\") or assert.fail(\"role must be either 'management' or 'workload'\")\nend\n";
    let values = "#@data/values\n---\nrole: management\nprovider: aws\nidentity_management_type: ldap\ndex:\n  service:\n    annotations: {}\n";
    let svc = "#@ load(\"/values.star\", \"get_annotations\")\nkind: Service\nmetadata:\n  annotations: #@ get_annotations()\n";
    let files = [
        ("libs/constants.lib.yaml", constants),
        ("values.star", star),
        ("values.yaml", values),
        ("svc.yaml", svc),
    ];
    assert_eq!(
        render(&files),
        "kind: Service\nmetadata:\n  annotations:\n    aws-load-balancer-backend-protocol: ssl\n"
    );
    assert_eq!(
        ytt::failure_of(
            &files,
            &[
                "-f",
                ".",
                "--data-value-yaml",
                "dex.service.annotations={a: b}"
            ]
        ),
        "strake: error: \n- struct value does not support item assignment\n    in get_annotations\n      11 |     annotations[\"aws-load-balancer-backend-protocol\"] = \"ssl\"\n    in <toplevel>\n      svc.yaml:4 |   annotations: #@ get_annotations()\n"
    );
}

/// A jq-like wrapper script runs a user's `main` over YAML input: `--file-mark` gives
/// the program and the input fixed paths (the input a data file), data values under
/// `_` come only from `--data-value-yaml` flags (which may add keys), and a text
/// template of `-@)`-trimmed code lines prints `json.encode`/`yaml.encode` of the
/// result with no trailing newline. `str.strip("---\n")` strips those characters from
/// both ends before the input is split into documents; iterating a struct gives its
/// keys. `json.encode` goes through Go maps, so its keys come out sorted, while
/// `yaml.encode` keeps the given order.
#[test]
fn a_text_template_wrapper_runs_a_program_over_marked_input() {
    let output = "(@ load(\"@ytt:data\", \"data\") -@)\n(@ load(\"@ytt:yaml\", \"yaml\") -@)\n(@ load(\"@ytt:json\", \"json\") -@)\n(@ load(\"_/program.star\", \"main\") -@)\n(@ input = [yaml.decode(d) for d in data.read(\"_/input.yaml\").strip(\"---\\n\").split(\"---\\n\")] -@)\n(@ result = main(input) -@)\n(@ if data.values._.output == \"yaml\": -@)\n(@=    yaml.encode(result) -@)\n(@ elif data.values._.output == \"yaml-document-set\": -@)\n(@   for item in result: -@)\n(@=      \"---\\n\" -@)\n(@=      yaml.encode(item) -@)\n(@   end -@)\n(@ else: -@)\n(@=  json.encode(result) -@)\n(@ end -@)\n";
    let input = "---\nkind: A\nmetadata: {name: a}\n---\nkind: B\nlist: [1, 2]\n";
    let length = "def main(input):\n    return len(input)\nend\n";
    let values =
        "load(\"@ytt:data\", \"data\")\n\ndef main(objects):\n    return data.values\nend\n";
    let run = |program: &str, format: &str| {
        let files = [
            ("prog.star", program),
            ("input.yaml", input),
            ("output.txt", output),
        ];
        let format = format!("_.output={format}");
        let out = ytt::render_output(
            &files,
            &[
                "--data-value-yaml",
                "_.raw=false",
                "--data-value-yaml",
                &format,
                "-f",
                "prog.star",
                "--file-mark",
                "prog.star:path=_/program.star",
                "-f",
                "input.yaml",
                "--file-mark",
                "input.yaml:path=_/input.yaml",
                "--file-mark",
                "input.yaml:type=data",
                "-f",
                "output.txt",
                "--output-files",
                "out",
            ],
        )
        .unwrap();
        let names: Vec<&str> = out.files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["output.txt"]);
        String::from_utf8(out.files[0].1.clone()).unwrap()
    };
    assert_eq!(run(length, "json"), "2");
    assert_eq!(
        run(values, "json"),
        "{\"_\":{\"output\":\"json\",\"raw\":false}}"
    );
    assert_eq!(run(values, "yaml"), "_:\n  raw: false\n  output: yaml\n");
    assert_eq!(run(values, "yaml-document-set"), "---\n_\n");
}
