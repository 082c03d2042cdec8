//! YAML for ytt templates: a YAML 1.1 (go-yaml v2) compatible parser that keeps
//! positions and `#@`/`#!` comments, a node tree, and an emitter that prints like ytt.
