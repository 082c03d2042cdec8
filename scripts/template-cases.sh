# The `strake template` benchmark cases, shared by scripts/bench-template and
# scripts/bench-ab (sourced, not run).
#
# name | ytt 0.48 median in ms (empty: no baseline) | arguments after `strake template`
TEMPLATE_CASES=(
  "supervisor|53|-f examples/pinniped/supervisor"
  "concierge|46|-f examples/pinniped/concierge"
  "supervisor schema openapi|15|-f examples/pinniped/supervisor --data-values-schema-inspect -o openapi-v3"
  "concierge schema openapi|15|-f examples/pinniped/concierge --data-values-schema-inspect -o openapi-v3"
  "benches/ytt-render||-f benches/ytt-render"
)
