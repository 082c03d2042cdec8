# The `strake template` benchmark cases, shared by scripts/bench-template and
# scripts/bench-ab (sourced, not run).
#
# name | ytt 0.48 median in ms (empty: no baseline) | arguments after `strake template`
#   [| ytt 0.48 peak RSS in MiB when it is not the Pinniped's 19; "-": not known, no goal]
TEMPLATE_CASES=(
  "supervisor|53|-f examples/pinniped/supervisor"
  "concierge|46|-f examples/pinniped/concierge"
  "supervisor schema openapi|15|-f examples/pinniped/supervisor --data-values-schema-inspect -o openapi-v3"
  "concierge schema openapi|15|-f examples/pinniped/concierge --data-values-schema-inspect -o openapi-v3"
  "benches/ytt-render||-f benches/ytt-render"
  # A generated 3 MB installer (940 documents, 63,600 lines). ytt 0.48 could not be run
  # here; 1800 ms is a lower bound extrapolated from its recorded Pinniped figures (about
  # 0.57 ms per KB of output once its 15 ms start-up is taken off, the supervisor's rate);
  # its peak memory on this case is not known.
  "benches/ytt-installer|1800|-f benches/ytt-installer|-"
)
