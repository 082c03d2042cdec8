//! End-to-end test of the flagship example `examples/pinniped/`: renders the Supervisor and
//! the Concierge with the `strake` binary and checks the documents (count, kinds in order)
//! and the values that show the engine did its job: images from data values, labels and
//! renamed API groups from the CRD overlay, the `yaml.encode`d and text-templated ConfigMaps,
//! schema defaults, `--data-values-file` overrides and schema validation errors.

use std::path::PathBuf;
use std::process::Command;

use strake::yaml::Value;

fn example(dir: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples/pinniped")
        .join(dir);
    p.to_string_lossy().into_owned()
}

/// Runs `strake template -f examples/pinniped/<app> <extra...>`; returns (success, stdout, stderr).
fn run(app: &str, extra: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_strake"))
        .arg("template")
        .arg("-f")
        .arg(example(app))
        .args(extra)
        .output()
        .expect("running strake");
    (
        out.status.success(),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

fn render(app: &str, extra: &[&str]) -> (String, Vec<Value>) {
    let (ok, stdout, stderr) = run(app, extra);
    assert!(ok, "strake template -f {app} {extra:?} failed:\n{stderr}");
    let set = strake::yaml::parse_document_set(&stdout, "stdout").expect("output parses as YAML");
    let docs = set
        .docs
        .iter()
        .map(|d| d.value.to_value())
        .filter(|v| !matches!(v, Value::Null))
        .collect();
    (stdout, docs)
}

fn s(v: &str) -> Value {
    Value::String(v.to_string())
}

/// Follows a path of map keys (or array indexes written as numbers).
fn at<'a>(v: &'a Value, path: &str) -> &'a Value {
    let mut cur = v;
    for part in path.split('.') {
        cur = match (cur, part.parse::<usize>()) {
            (Value::Array(items), Ok(i)) => items
                .get(i)
                .unwrap_or_else(|| panic!("no index {i} in {path}")),
            _ => cur
                .get(&s(part))
                .unwrap_or_else(|| panic!("no key {part:?} (path {path}) in {cur:?}")),
        };
    }
    cur
}

fn str_at<'a>(v: &'a Value, path: &str) -> &'a str {
    match at(v, path) {
        Value::String(x) => x,
        other => panic!("{path} is not a string: {other:?}"),
    }
}

/// One map key that may itself contain dots.
fn key<'a>(v: &'a Value, k: &str) -> &'a str {
    match v.get(&s(k)) {
        Some(Value::String(x)) => x,
        other => panic!("key {k:?} is not a string: {other:?}"),
    }
}

fn kinds(docs: &[Value]) -> Vec<String> {
    docs.iter().map(|d| str_at(d, "kind").to_string()).collect()
}

fn find<'a>(docs: &'a [Value], kind: &str, name: &str) -> &'a Value {
    docs.iter()
        .find(|d| str_at(d, "kind") == kind && str_at(d, "metadata.name") == name)
        .unwrap_or_else(|| panic!("no {kind} {name} in output"))
}

fn map_keys(v: &Value) -> Vec<String> {
    match v {
        Value::Map(items) => items
            .iter()
            .map(|(k, _)| match k {
                Value::String(k) => k.clone(),
                other => format!("{other:?}"),
            })
            .collect(),
        other => panic!("not a map: {other:?}"),
    }
}

const SUPERVISOR_KINDS: [&str; 18] = [
    "CustomResourceDefinition",
    "CustomResourceDefinition",
    "Namespace",
    "ServiceAccount",
    "ConfigMap",
    "Deployment",
    "Service",
    "APIService",
    "CustomResourceDefinition",
    "CustomResourceDefinition",
    "CustomResourceDefinition",
    "CustomResourceDefinition",
    "Role",
    "RoleBinding",
    "RoleBinding",
    "ClusterRoleBinding",
    "ClusterRole",
    "ClusterRoleBinding",
];

#[test]
fn supervisor_renders_18_documents_in_file_order() {
    let (text, docs) = render("supervisor", &[]);
    assert_eq!(kinds(&docs), SUPERVISOR_KINDS);
    assert!(!text.starts_with("---"), "no leading document separator");
    assert_eq!(text.matches("\n---\n").count(), 17);

    let crd_names: Vec<&str> = docs
        .iter()
        .filter(|d| str_at(d, "kind") == "CustomResourceDefinition")
        .map(|d| str_at(d, "metadata.name"))
        .collect();
    assert_eq!(
        crd_names,
        [
            "federationdomains.config.supervisor.pinniped.dev",
            "oidcclients.config.supervisor.pinniped.dev",
            "activedirectoryidentityproviders.idp.supervisor.pinniped.dev",
            "githubidentityproviders.idp.supervisor.pinniped.dev",
            "ldapidentityproviders.idp.supervisor.pinniped.dev",
            "oidcidentityproviders.idp.supervisor.pinniped.dev",
        ]
    );
}

#[test]
fn supervisor_default_values() {
    let (text, docs) = render("supervisor", &[]);
    let deploy = find(&docs, "Deployment", "pinniped-supervisor");
    assert_eq!(
        str_at(deploy, "spec.template.spec.containers.0.image"),
        "ghcr.io/vmware-tanzu/pinniped/pinniped-server:latest"
    );
    assert_eq!(at(deploy, "spec.replicas"), &Value::Int(2));
    assert_eq!(
        at(deploy, "spec.template.spec.securityContext.runAsUser"),
        &Value::Int(65532)
    );
    // every env item sits behind an `if`: an empty array remains
    assert_eq!(
        at(deploy, "spec.template.spec.containers.0.env"),
        &Value::Array(vec![])
    );
    assert!(text.contains("\n        env: []\n"));
    // no image pull secret by default: neither the Secret document nor the pod field
    assert!(!kinds(&docs).contains(&"Secret".to_string()));
    assert!(
        at(deploy, "spec.template.spec")
            .get(&s("imagePullSecrets"))
            .is_none()
    );
    // fragment functions spliced with template.replace
    assert_eq!(
        map_keys(at(deploy, "spec.template.metadata.labels")),
        ["app", "deployment.pinniped.dev"]
    );
    assert_eq!(
        str_at(
            deploy,
            "spec.template.spec.containers.0.securityContext.capabilities.drop.0"
        ),
        "ALL"
    );

    // the ConfigMap's pinniped.yaml comes from yaml.encode and is printed as a literal block
    let cm = find(&docs, "ConfigMap", "pinniped-supervisor-static-config");
    assert_eq!(
        key(at(cm, "data"), "pinniped.yaml"),
        "apiGroupSuffix: pinniped.dev\n\
         names:\n  defaultTLSCertificateSecret: pinniped-supervisor-default-tls-certificate\n  apiService: pinniped-supervisor-api\n\
         labels:\n  app: pinniped-supervisor\n\
         tls:\n  onedottwo:\n    allowedCiphers: []\n\
         audit:\n  logUsernamesAndGroups: disabled\n  logInternalPaths: disabled\n\
         aggregatedAPIServerDisableAdmissionPlugins: []\n"
    );
    assert!(text.contains("  pinniped.yaml: |\n    apiGroupSuffix: pinniped.dev\n"));

    let api = find(
        &docs,
        "APIService",
        "v1alpha1.clientsecret.supervisor.pinniped.dev",
    );
    assert_eq!(str_at(api, "spec.service.namespace"), "pinniped-supervisor");
    let svc = find(&docs, "Service", "pinniped-supervisor-api");
    assert_eq!(
        map_keys(at(svc, "spec.selector")),
        ["deployment.pinniped.dev"]
    );
}

#[test]
fn supervisor_crd_overlay_labels_and_pattern() {
    let (_, docs) = render("supervisor", &[]);
    for crd in docs
        .iter()
        .filter(|d| str_at(d, "kind") == "CustomResourceDefinition")
    {
        // missing_ok adds `labels` at the end of metadata, after `name`
        assert_eq!(
            map_keys(at(crd, "metadata")),
            ["annotations", "name", "labels"]
        );
        assert_eq!(str_at(crd, "metadata.labels.app"), "pinniped-supervisor");
    }
    let oidc = find(
        &docs,
        "CustomResourceDefinition",
        "oidcclients.config.supervisor.pinniped.dev",
    );
    let meta = at(
        oidc,
        "spec.versions.0.schema.openAPIV3Schema.properties.metadata",
    );
    assert_eq!(str_at(meta, "type"), "object");
    assert_eq!(
        str_at(meta, "properties.name.pattern"),
        r"^client\.oauth\.pinniped\.dev-"
    );
    // a JSONPath with `(@` in a plain file is not a text template
    assert_eq!(
        str_at(oidc, "spec.versions.0.additionalPrinterColumns.0.jsonPath"),
        r#".spec.allowedScopes[?(@ == "pinniped:request-audience")]"#
    );
    // the other CRDs get no name pattern
    let fd = find(
        &docs,
        "CustomResourceDefinition",
        "federationdomains.config.supervisor.pinniped.dev",
    );
    let fd_meta = at(
        fd,
        "spec.versions.0.schema.openAPIV3Schema.properties.metadata",
    );
    assert_eq!(map_keys(fd_meta), ["type"]);
}

#[test]
fn supervisor_with_example_values_file_and_flags() {
    let values = example("supervisor.values-example.yml");
    let (_, docs) = render(
        "supervisor",
        &[
            "--data-values-file",
            &values,
            "--data-value",
            "api_group_suffix=example.com",
            "--data-value",
            "into_namespace=identity",
            "--data-value",
            "image_digest=sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
        ],
    );
    // into_namespace drops the Namespace; the ClusterIP and LoadBalancer Services are added
    let k = kinds(&docs);
    assert_eq!(k.len(), 19, "{k:?}");
    assert!(!k.contains(&"Namespace".to_string()));
    assert_eq!(k.iter().filter(|x| *x == "Service").count(), 3);
    let lb = find(&docs, "Service", "pinniped-supervisor-loadbalancer");
    assert_eq!(str_at(lb, "spec.loadBalancerIP"), "10.0.0.40");
    assert_eq!(str_at(lb, "metadata.namespace"), "identity");

    let deploy = find(&docs, "Deployment", "pinniped-supervisor");
    assert_eq!(
        str_at(deploy, "spec.template.spec.containers.0.image"),
        "ghcr.io/vmware-tanzu/pinniped/pinniped-server@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    );
    assert_eq!(at(deploy, "spec.replicas"), &Value::Int(3));
    assert_eq!(
        map_keys(at(deploy, "metadata.labels")),
        ["app", "team", "environment"]
    );

    // the overlay renames CRDs and groups after api_group_suffix and carries the custom labels
    let crd = find(
        &docs,
        "CustomResourceDefinition",
        "oidcidentityproviders.idp.supervisor.example.com",
    );
    assert_eq!(str_at(crd, "spec.group"), "idp.supervisor.example.com");
    assert_eq!(str_at(crd, "metadata.labels.team"), "identity");
    find(
        &docs,
        "APIService",
        "v1alpha1.clientsecret.supervisor.example.com",
    );

    let cm = find(&docs, "ConfigMap", "pinniped-supervisor-static-config");
    let conf = key(at(cm, "data"), "pinniped.yaml");
    assert!(conf.starts_with("apiGroupSuffix: example.com\n"), "{conf}");
    assert!(conf.contains("    allowedCiphers:\n    - TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384\n    - TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384\n"), "{conf}");
    assert!(conf.contains("log:\n  level: debug\n"), "{conf}");
    assert!(
        conf.contains(
            "endpoints:\n  https:\n    network: tcp\n    address: :8443\n  http: disabled\n"
        ),
        "{conf}"
    );
}

#[test]
fn supervisor_schema_validations_reject_bad_values() {
    let (ok, _, err) = run("supervisor", &["--data-value", "log_level=loud"]);
    assert!(!ok, "log_level=loud must be rejected");
    assert!(err.contains("log_level"), "{err}");

    let (ok, _, err) = run(
        "supervisor",
        &["--data-value-yaml", "custom_labels={\"team\": 7}"],
    );
    assert!(!ok, "a non-string label value must be rejected");
    assert!(err.contains("custom_labels"), "{err}");
    assert!(err.contains("a map of keys and values"), "{err}");

    let (ok, _, err) = run(
        "supervisor",
        &[
            "--data-value-yaml",
            "endpoints={\"https\": {\"network\": \"udp\", \"address\": \":1\"}}",
        ],
    );
    assert!(!ok, "an unknown network must be rejected");
    assert!(err.contains("endpoints"), "{err}");

    let (ok, _, err) = run("supervisor", &["--data-value-yaml", "replicas=\"two\""]);
    assert!(!ok, "a string for an integer must be rejected");
    assert!(err.contains("replicas"), "{err}");
}

const CONCIERGE_KINDS: [&str; 30] = [
    "CustomResourceDefinition",
    "CustomResourceDefinition",
    "CustomResourceDefinition",
    "Namespace",
    "ServiceAccount",
    "ServiceAccount",
    "ServiceAccount",
    "ConfigMap",
    "Deployment",
    "Service",
    "Service",
    "APIService",
    "APIService",
    "CredentialIssuer",
    "ClusterRole",
    "ClusterRoleBinding",
    "Role",
    "RoleBinding",
    "Role",
    "RoleBinding",
    "Role",
    "RoleBinding",
    "ClusterRole",
    "ClusterRoleBinding",
    "RoleBinding",
    "Role",
    "RoleBinding",
    "ClusterRoleBinding",
    "ClusterRole",
    "ClusterRoleBinding",
];

#[test]
fn concierge_renders_30_documents() {
    let (text, docs) = render("concierge", &[]);
    assert_eq!(kinds(&docs), CONCIERGE_KINDS);
    assert_eq!(text.matches("\n---\n").count(), 29);

    let ns = find(&docs, "Namespace", "pinniped-concierge");
    assert_eq!(
        map_keys(at(ns, "metadata.labels")),
        ["app", "pod-security.kubernetes.io/enforce"]
    );
    let deploy = find(&docs, "Deployment", "pinniped-concierge");
    assert_eq!(
        str_at(deploy, "spec.template.spec.containers.0.image"),
        "ghcr.io/vmware-tanzu/pinniped/pinniped-server:latest"
    );
    for crd in docs
        .iter()
        .filter(|d| str_at(d, "kind") == "CustomResourceDefinition")
    {
        assert_eq!(
            map_keys(at(crd, "metadata")),
            ["annotations", "name", "labels"]
        );
        assert_eq!(str_at(crd, "metadata.labels.app"), "pinniped-concierge");
    }

    let ci = find(&docs, "CredentialIssuer", "pinniped-concierge-config");
    assert_eq!(
        str_at(ci, "apiVersion"),
        "config.concierge.pinniped.dev/v1alpha1"
    );
    assert_eq!(str_at(ci, "spec.impersonationProxy.mode"), "auto");
    assert_eq!(
        str_at(ci, "spec.impersonationProxy.service.type"),
        "LoadBalancer"
    );
    assert_eq!(
        key(
            at(ci, "spec.impersonationProxy.service.annotations"),
            "service.beta.kubernetes.io/aws-load-balancer-connection-idle-timeout"
        ),
        "4000"
    );
    assert!(text.contains("aws-load-balancer-connection-idle-timeout: \"4000\"\n"));
    find(&docs, "APIService", "v1alpha1.login.concierge.pinniped.dev");
    find(
        &docs,
        "APIService",
        "v1alpha1.identity.concierge.pinniped.dev",
    );
}

#[test]
fn concierge_text_templated_config() {
    let (text, docs) = render("concierge", &[]);
    let cm = find(&docs, "ConfigMap", "pinniped-concierge-config");
    let conf = key(at(cm, "data"), "pinniped.yaml");
    assert!(conf.starts_with("discovery:\n  url: null\napi:\n  servingCertificate:\n    durationSeconds: 2592000\n    renewBeforeSeconds: 2160000\napiGroupSuffix: pinniped.dev\n"), "{conf}");
    // json.encode of a fragment is compact
    assert!(
        conf.contains("\nlabels: {\"app\":\"pinniped-concierge\"}\n"),
        "{conf}"
    );
    // whitespace around (@ if @) lines stays, so lines of only spaces remain...
    assert!(conf.contains("\nkubeCertAgent:\n  namePrefix: pinniped-concierge-kube-cert-agent-\n  \n  image: ghcr.io/vmware-tanzu/pinniped/pinniped-server:latest\n  \n"), "{conf}");
    assert!(conf.contains("    allowedCiphers: []\n"), "{conf}");
    assert!(
        conf.contains("# aggregatedAPIServerPort may be set here"),
        "{conf}"
    );
    // ...and the string, having trailing spaces, is printed double-quoted
    assert!(
        text.contains("  pinniped.yaml: \"discovery:\\n  url: null\\n"),
        "not double-quoted"
    );
    assert!(!conf.contains("(@"), "{conf}");
}

#[test]
fn concierge_with_example_values_file() {
    let values = example("concierge.values-example.yml");
    let (_, docs) = render(
        "concierge",
        &[
            "--data-values-file",
            &values,
            "--data-value",
            "kube_cert_agent_image=registry.example.com/agent:v1",
        ],
    );
    assert_eq!(docs.len(), 30);
    let cm = find(&docs, "ConfigMap", "pinniped-concierge-config");
    let conf = key(at(cm, "data"), "pinniped.yaml");
    assert!(
        conf.contains("  url: https://kubernetes.example.com:6443\n"),
        "{conf}"
    );
    assert!(conf.contains("    durationSeconds: 7776000\n"), "{conf}");
    assert!(
        conf.contains("labels: {\"app\":\"pinniped-concierge\",\"team\":\"platform\"}\n"),
        "{conf}"
    );
    assert!(
        conf.contains("  image: registry.example.com/agent:v1\n"),
        "{conf}"
    );
    assert!(
        conf.contains("  priorityClassName: system-cluster-critical\n"),
        "{conf}"
    );
    assert!(conf.contains("log:\n  level: info\n"), "{conf}");
    assert!(
        conf.contains("allowedCiphers: [\"TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384\"]\n"),
        "{conf}"
    );

    let ci = find(&docs, "CredentialIssuer", "pinniped-concierge-config");
    assert_eq!(str_at(ci, "spec.impersonationProxy.mode"), "enabled");
    assert_eq!(
        str_at(ci, "spec.impersonationProxy.externalEndpoint"),
        "proxy.example.com:443"
    );
    assert_eq!(
        str_at(ci, "spec.impersonationProxy.service.type"),
        "ClusterIP"
    );
    assert_eq!(
        map_keys(at(ci, "spec.impersonationProxy.service.annotations")),
        ["example.com/owner"]
    );
}

#[test]
fn concierge_schema_validations_reject_bad_values() {
    let (ok, _, err) = run(
        "concierge",
        &["--data-value", "impersonation_proxy_spec.mode=sometimes"],
    );
    assert!(!ok, "an unknown impersonation proxy mode must be rejected");
    assert!(err.contains("mode"), "{err}");

    let (ok, _, err) = run(
        "concierge",
        &[
            "--data-value-yaml",
            "api_serving_certificate_duration_seconds=[1]",
        ],
    );
    assert!(!ok, "a list for the certificate duration must be rejected");
    assert!(
        err.contains("an int or string which contains an integer value"),
        "{err}"
    );
}

/// `benches/ytt-render` (the size-matched benchmark input of `scripts/bench-template`) must
/// keep rendering: 15 components × 6 documents, with the overlay and text template applied.
#[test]
fn bench_render_dir_renders() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/ytt-render");
    let out = Command::new(env!("CARGO_BIN_EXE_strake"))
        .arg("template")
        .arg("-f")
        .arg(&dir)
        .output()
        .expect("running strake");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(text.lines().count(), 2600);
    let set = strake::yaml::parse_document_set(&text, "stdout").expect("parses");
    let docs: Vec<Value> = set.docs.iter().map(|d| d.value.to_value()).collect();
    let deployments: Vec<&Value> = docs
        .iter()
        .filter(|d| d.get(&s("kind")) == Some(&s("Deployment")))
        .collect();
    assert_eq!(docs.len(), 90);
    assert_eq!(deployments.len(), 15);
    let api = deployments[0];
    assert_eq!(
        key(
            at(api, "metadata.annotations"),
            "bench.example.com/rendered-by"
        ),
        "strake"
    );
    assert_eq!(
        str_at(api, "spec.template.spec.containers.0.image"),
        "registry.example.com/bench/api:v1.2.3"
    );
    assert_eq!(
        str_at(api, "spec.template.spec.containers.0.env.0.value"),
        "bench"
    );
    let cm = &docs[1];
    assert_eq!(
        key(at(cm, "data"), "config.yaml"),
        "name: api\nlisten: \":8000\"\nlog:\n  level: debug\n\
         labels: {\"app.kubernetes.io/name\":\"api\",\"app.kubernetes.io/part-of\":\"bench\",\"team\":\"bench\",\"tier\":\"backend\"}\n\
         features:\n- metrics\n- tracing\n"
    );
}
