//! Schema errors (`#@data/values-schema` documents) byte for byte as ytt 0.48 prints them,
//! from its non-test source (`pkg/schema` and `pkg/workspace`): every problem found while
//! building the schema is reported inside `Overlaying data values schema (in following
//! order: ...)`, with no position trailer; `NewSchemaError` headings name the problem
//! (`Invalid schema - ...`) where ytt names it there, and a report returned where ytt
//! expected a single problem is nested in an `Invalid schema` report of its own.

use crate::support::ytt::failure_of;

/// The stderr of `strake template -f .` over one file `schema.yml`.
fn schema_failure(schema: &str) -> String {
    failure_of(&[("schema.yml", schema)], &["-f", "."])
}

const LEAD: &str =
    "strake: error: Overlaying data values schema (in following order: schema.yml): \n";

#[test]
fn a_default_on_an_array_item_is_refused_in_a_nested_report() {
    let err = schema_failure("#@data/values-schema\n---\nfoo:\n#@schema/default \"baz\"\n- bar\n");
    assert_eq!(
        err,
        format!(
            "{LEAD}Invalid schema\n\
==============\n\
\n\
Invalid schema - @schema/default not supported on array item\n\
============================================================\n\
\n\
schema.yml:\n\
\x20   |\n\
\x20 4 | #@schema/default \"baz\"\n\
\x20 5 | - bar\n\
\x20   |\n\
\n\
\n\
\n\
\x20   = hint: do you mean to set a default value for the array?\n\
\x20   = hint: set an array's default by annotating its parent.\n"
        )
    );
}

#[test]
fn wrong_number_of_array_items_is_named_in_the_heading() {
    let want = |line: &str, found: usize| {
        format!(
            "{LEAD}Invalid schema - wrong number of items in array definition\n\
==========================================================\n\
\n\
schema.yml:\n\
\x20   |\n\
\x20 3 | {line}\n\
\x20   |\n\
\n\
\x20   = found: {found} array items\n\
\x20   = expected: exactly 1 array item, of the desired type\n\
\x20   = hint: in schema, the one item of the array implies the type of its elements.\n\
\x20   = hint: in schema, the default value for an array is always an empty list.\n\
\x20   = hint: default values can be overridden via a data values overlay.\n"
        )
    };
    assert_eq!(
        schema_failure("#@data/values-schema\n---\nlist:\n- a\n- b\n"),
        want("list:", 2)
    );
    assert_eq!(
        schema_failure("#@data/values-schema\n---\nnothing_in_list: []\n"),
        want("nothing_in_list: []", 0)
    );
}

#[test]
fn a_null_value_is_named_in_the_heading() {
    assert_eq!(
        schema_failure("#@data/values-schema\n---\nvalue: null\n"),
        format!(
            "{LEAD}Invalid schema - null value not allowed here\n\
============================================\n\
\n\
schema.yml:\n\
\x20   |\n\
\x20 3 | value: null\n\
\x20   |\n\
\n\
\x20   = found: null value\n\
\x20   = expected: non-null value\n\
\x20   = hint: in YAML, omitting a value implies null.\n\
\x20   = hint: to set the default value to null, annotate with @schema/nullable.\n\
\x20   = hint: to allow any value, annotate with @schema/type any=True.\n"
        )
    );
}

#[test]
fn a_default_of_the_wrong_type_is_named_in_the_heading_with_its_annotation() {
    assert_eq!(
        schema_failure("#@data/values-schema\n---\n#@schema/default \"three\"\nreplicas: 1\n"),
        format!(
            "{LEAD}Invalid schema - @schema/default is wrong type\n\
==============================================\n\
\n\
schema.yml:\n\
\x20   |\n\
\x20 3 | #@schema/default \"three\"\n\
\x20 4 | replicas: 1\n\
\x20   |\n\
\n\
\x20   = found: string (at schema.yml:3)\n\
\x20   = expected: integer (by schema.yml:4)\n"
        )
    );
}

#[test]
fn annotation_argument_errors_keep_the_plain_heading_and_a_description() {
    assert_eq!(
        schema_failure("#@data/values-schema\n---\n#@schema/type any=1\nx: 1\n"),
        format!(
            "{LEAD}Invalid schema\n\
==============\n\
\n\
unknown @schema/type annotation keyword argument\n\
schema.yml:\n\
\x20   |\n\
\x20 3 | #@schema/type any=1\n\
\x20 4 | x: 1\n\
\x20   |\n\
\n\
\x20   = found: starlark.Int (by schema.yml:3)\n\
\x20   = expected: starlark.Bool\n\
\x20   = hint: Supported kwargs are 'any'\n"
        )
    );
    let err =
        schema_failure("#@data/values-schema\n---\n#@schema/type any=True, every=True\nx: 1\n");
    assert!(
        err.ends_with("\n    = found: every (by schema.yml:3)\n    = expected: A valid kwarg\n    = hint: Supported kwargs are 'any'\n"),
        "{err}"
    );
}

/// A nullable node's type is `null` for `@schema/default` (ytt's `NullType.String()`).
#[test]
fn a_malformed_default_on_a_nullable_node_expects_null() {
    assert_eq!(
        schema_failure(
            "#@data/values-schema\n---\n#@schema/nullable\n#@schema/default 1, 2\nfoo: \"\"\n"
        ),
        format!(
            "{LEAD}Invalid schema\n\
==============\n\
\n\
syntax error in @schema/default annotation\n\
schema.yml:\n\
\x20   |\n\
\x20 4 | #@schema/default 1, 2\n\
\x20 5 | foo: \"\"\n\
\x20   |\n\
\n\
\x20   = found: 2 values in @schema/default (by schema.yml:4)\n\
\x20   = expected: null (by schema.yml:5)\n"
        )
    );
}

#[test]
fn deprecating_the_schema_document_is_refused() {
    assert_eq!(
        schema_failure("#@data/values-schema\n#@schema/deprecated \"x\"\n---\nfoo: 1\n"),
        format!(
            "{LEAD}Invalid schema\n\
==============\n\
\n\
@schema/deprecated not supported on a document\n\
schema.yml:\n\
\x20   |\n\
\x20 2 | #@schema/deprecated \"x\"\n\
\x20 3 | ---\n\
\x20   |\n\
\n\
\n\
\n\
\x20   = hint: do you mean to deprecate the entire schema document?\n\
\x20   = hint: use schema/deprecated on individual keys.\n"
        )
    );
}

/// ytt reads `@schema/type` and `@schema/nullable` before the node's children, and the
/// documentation annotations and `@schema/default` after them, whatever the order of the
/// annotations in the file: a child's problem comes before its parent's bad `@schema/desc`.
#[test]
fn problems_are_found_in_ytts_order() {
    let err =
        schema_failure("#@data/values-schema\n---\n#@schema/desc 1\nparent:\n  child: null\n");
    assert!(
        err.starts_with(&format!(
            "{LEAD}Invalid schema - null value not allowed here\n"
        )),
        "{err}"
    );
    let err = schema_failure(
        "#@data/values-schema\n---\n#@schema/default 1, 2\n#@schema/type any=1\nx: 1\n",
    );
    assert!(
        err.contains("\nunknown @schema/type annotation keyword argument\n"),
        "{err}"
    );
}

/// A malformed `@schema/validation` is a plain message, which ytt's final layout splits
/// after the colon that a capital letter follows.
#[test]
fn a_malformed_validation_is_a_plain_message_inside_the_schema_step() {
    assert_eq!(
        schema_failure(
            "#@data/values-schema\n---\n#@schema/validation format=\"ip\"\naddress: 127.0.0.1\n"
        ),
        "strake: error: Overlaying data values schema (in following order: schema.yml):\n  Invalid @schema/validation annotation - unknown keyword argument \"format\" (at schema.yml:3)\n"
    );
}
