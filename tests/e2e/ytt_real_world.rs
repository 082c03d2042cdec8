//! Patterns that published deploy directories lean on (package bundles of the
//! community addons, the Carvel controllers' release config), each cut down to a small
//! case written for this test: overlay annotations indented unlike the node they
//! annotate, an `if` block that spans array items and the map items after them, `.star`
//! files whose block bodies are not indented, YAML functions whose body is one
//! multi-line flow mapping, `@overlay/replace via=` editing a JSON string, keys built by
//! text templates in a loop, and an annotation written after a map key's colon.

use crate::support::ytt::render as render_args;

fn render(files: &[(&str, &str)]) -> Result<String, String> {
    render_args(files, &["-f", "."])
}

fn render_with(files: &[(&str, &str)], extra: &[&str]) -> Result<String, String> {
    let mut args = vec!["-f", "."];
    args.extend_from_slice(extra);
    render_args(files, &args)
}

const DEPLOYMENT: &str = "\
kind: Deployment
spec:
  containers:
  - name: app
    env:
    - name: KEEP
      value: a
    - name: DROP_ME
      value: b
    probe:
      command:
      - /bin/check
      - -extra
";

#[test]
fn overlay_annotations_deeper_than_their_array_item_still_apply() {
    let overlay = "\
#@ load(\"@ytt:overlay\", \"overlay\")
#@ drop = True
#@overlay/match by=overlay.subset({\"kind\": \"Deployment\"})
---
spec:
  containers:
  #@overlay/match by=\"name\"
  - name: app
    env:
       #@overlay/match by=\"name\"
       #@overlay/remove
       #@ if/end drop:
    - name: DROP_ME
";
    assert_eq!(
        render(&[("base.yml", DEPLOYMENT), ("overlay.yml", overlay)]).unwrap(),
        "kind: Deployment\nspec:\n  containers:\n  - name: app\n    env:\n    - name: KEEP\n      value: a\n    probe:\n      command:\n      - /bin/check\n      - -extra\n"
    );
}

#[test]
fn an_if_block_may_span_array_items_and_the_map_items_after_the_array() {
    // The `if` opens among the items of `env` and closes after `probe`, a sibling of
    // `env`: when false, both the items and `probe` leave the overlay; `env` stays.
    let overlay = "\
#@ load(\"@ytt:overlay\", \"overlay\")
#@ def starts(index, left, right):
#@   return left.startswith(right)
#@ end
#@overlay/match by=overlay.subset({\"kind\": \"Deployment\"})
---
spec:
  containers:
  #@overlay/match by=\"name\"
  - name: app
    env:
      #@overlay/match by=\"name\"
      - name: KEEP
        value: changed
    #@ if data_on:
      #@overlay/match by=\"name\"
      #@overlay/remove
      - name: DROP_ME
    probe:
      command:
        #@overlay/match by=starts
        #@overlay/remove
        - -extra
    #@ end
";
    let on = format!("#@ data_on = True\n{overlay}");
    let off = format!("#@ data_on = False\n{overlay}");
    assert_eq!(
        render(&[("base.yml", DEPLOYMENT), ("overlay.yml", &on)]).unwrap(),
        "kind: Deployment\nspec:\n  containers:\n  - name: app\n    env:\n    - name: KEEP\n      value: changed\n    probe:\n      command:\n      - /bin/check\n"
    );
    assert_eq!(
        render(&[("base.yml", DEPLOYMENT), ("overlay.yml", &off)]).unwrap(),
        "kind: Deployment\nspec:\n  containers:\n  - name: app\n    env:\n    - name: KEEP\n      value: changed\n    - name: DROP_ME\n      value: b\n    probe:\n      command:\n      - /bin/check\n      - -extra\n"
    );
}

#[test]
fn star_files_close_blocks_with_end_whatever_the_indentation() {
    let star = "\
load(\"@ytt:data\", \"data\")

def pick():
  items = [\"a\", \"b\"]
   for i in items:
     if i == data.values.want:
       return i
     end
   end
  return \"none\"
end

chosen = \"\"
if data.values.want:
chosen = pick()
else:
    chosen = \"unset\"
end
";
    let values = "#@data/values\n---\nwant: b\n";
    let tpl = "#@ load(\"/helpers.star\", \"chosen\")\nchosen: #@ chosen\n";
    let files = [
        ("helpers.star", star),
        ("values.yml", values),
        ("config.yml", tpl),
    ];
    assert_eq!(render(&files).unwrap(), "chosen: b\n");
    assert_eq!(
        render_with(&files, &["-v", "want="]).unwrap(),
        "chosen: unset\n"
    );
}

#[test]
fn a_function_body_may_be_one_multi_line_flow_mapping() {
    let tpl = "\
#@ load(\"@ytt:json\", \"json\")
#@ def dashboard():
{
  \"title\": \"Nodes & Pods\",
  \"panels\": [
    {\"id\": 2, \"ratio\": 0.5,
     \"expr\": \"sum(x{a=\\\"/\\\"})\"},
    {\"id\": 1, \"big\": 1e21, \"none\": null}
  ],
  \"editable\": true
}
#@ end
---
data:
  dash.json: #@ json.encode(dashboard())
  panels: #@ len(dashboard()[\"panels\"])
";
    assert_eq!(
        render(&[("config.yml", tpl)]).unwrap(),
        "data:\n  dash.json: '{\"editable\":true,\"panels\":[{\"expr\":\"sum(x{a=\\\"/\\\"})\",\"id\":2,\"ratio\":0.5},{\"big\":1e+21,\"id\":1,\"none\":null}],\"title\":\"Nodes \\u0026 Pods\"}'\n  panels: 2\n"
    );
}

#[test]
fn replace_via_edits_a_json_string_that_is_not_quite_json() {
    let base = "\
kind: ConfigMap
data:
  cni: |-
    {
      \"name\": \"net\",
      \"mtu\": __MTU__,
      \"plugins\": [{\"ipam\": {\"type\": \"host-local\"}}]
    }
";
    let overlay = "\
#@ load(\"@ytt:overlay\", \"overlay\")
#@ load(\"@ytt:json\", \"json\")
#@ def add_ipv6(text, _):
#@   quoted = '\"MTU_PLACEHOLDER\"'
#@   doc = json.decode(text.replace(\"__MTU__\", quoted))
#@   doc[\"plugins\"][0][\"ipam\"][\"assign_ipv6\"] = \"true\"
#@   return json.encode(doc).replace(quoted, \"__MTU__\")
#@ end
#@overlay/match by=overlay.subset({\"kind\": \"ConfigMap\"})
---
data:
  #@overlay/replace via=add_ipv6
  cni:
";
    assert_eq!(
        render(&[("base.yml", base), ("overlay.yml", overlay)]).unwrap(),
        "kind: ConfigMap\ndata:\n  cni: '{\"mtu\":__MTU__,\"name\":\"net\",\"plugins\":[{\"ipam\":{\"assign_ipv6\":\"true\",\"type\":\"host-local\"}}]}'\n"
    );
}

#[test]
fn keys_built_by_text_templates_in_a_loop_are_added_by_the_overlay() {
    let base = "\
kind: Deployment
spec:
  template:
    spec:
      nodeSelector:
        role/master: \"\"
";
    let overlay = "\
#@ load(\"@ytt:overlay\", \"overlay\")
#@ selector = {\"kubernetes.io/os\": \"linux\", \"zone\": \"a\"}
#@overlay/match by=overlay.subset({\"kind\": \"Deployment\"})
---
spec:
  template:
    spec:
      #@overlay/match missing_ok=True
      nodeSelector:
        #@overlay/remove
        role/master:
        #@ for key in selector:
        #@overlay/match missing_ok=True
        #@yaml/text-templated-strings
        (@= key @): #@ selector[key]
        #@ end
";
    assert_eq!(
        render(&[("base.yml", base), ("overlay.yml", overlay)]).unwrap(),
        "kind: Deployment\nspec:\n  template:\n    spec:\n      nodeSelector:\n        kubernetes.io/os: linux\n        zone: a\n"
    );
}

#[test]
fn an_annotation_after_the_colon_of_an_empty_map_item_annotates_that_item() {
    let base = "\
kind: Deployment
spec:
  mounts:
  - name: key
    path: /etc/key/
    subPath: tls.key
";
    let overlay = "\
#@ load(\"@ytt:overlay\", \"overlay\")
#@overlay/match by=overlay.subset({\"kind\": \"Deployment\"})
---
spec:
  mounts:
    #@overlay/match by=\"name\"
    - name: key
      path: /etc/private-key/
      subPath: #@overlay/remove
";
    assert_eq!(
        render(&[("base.yml", base), ("overlay.yml", overlay)]).unwrap(),
        "kind: Deployment\nspec:\n  mounts:\n  - name: key\n    path: /etc/private-key/\n"
    );
}

#[test]
fn a_data_value_key_that_yaml_reads_as_a_boolean_is_refused_with_its_path() {
    // `on:` is a YAML 1.1 boolean; ytt 0.48 crashes building `data.values` from it
    // (struct keys must be strings), so the engine refuses it with a clear error.
    let values = "#@data/values\n---\nnotify:\n  recipients:\n  - admin\n  on:\n  - any\n";
    let tpl = "#@ load(\"@ytt:data\", \"data\")\nnotify: #@ data.values.notify\n";
    let err = render(&[("values.yml", values), ("config.yml", tpl)]).unwrap_err();
    assert!(
        err.contains("Expected data value keys to be strings")
            && err.contains("'notify'")
            && err.contains("true (boolean)")
            && err.contains("config.yml:1"),
        "{err}"
    );
    // Quoted, the key is a string and the values render.
    let quoted = values.replace("  on:", "  \"on\":");
    assert_eq!(
        render(&[("values.yml", &quoted), ("config.yml", tpl)]).unwrap(),
        "notify:\n  recipients:\n  - admin\n  \"on\":\n  - any\n"
    );
    // Files that do not load @ytt:data are not concerned.
    assert_eq!(
        render(&[("values.yml", values), ("config.yml", "plain: 1\n")]).unwrap(),
        "plain: 1\n"
    );
}

#[test]
fn library_get_takes_strict_as_ytt_documents() {
    let lib = "enabled: yes\n";
    let call = |kw: &str| {
        format!(
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"app\"{kw}).eval())\n"
        )
    };
    let loose = call("");
    assert_eq!(
        render(&[("_ytt_lib/app/t.yml", lib), ("config.yml", &loose)]).unwrap(),
        "enabled: true\n"
    );
    // `strict=True` reads the library's YAML as `--strict` does: `yes` is refused.
    let strict = call(", strict=True");
    let err = render(&[("_ytt_lib/app/t.yml", lib), ("config.yml", &strict)]).unwrap_err();
    assert!(err.contains("yes"), "{err}");
}
