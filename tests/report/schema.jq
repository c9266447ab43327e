# The report's JSON Schema (triage report --json-schema) as docs/report.md's
# key table: one row per key, "| `path` | type | always |".
def typename:
  if (.type | type) == "array" then (.type | join(" or "))
  elif .type == "array" then "array of \(.items.type)s"
  else .type end;
def rows($p):
  (.required // []) as $req
  | .properties | to_entries[]
  | .key as $k | .value as $v
  | "| `\($p)\($k)` | \($v | typename) | \(if ($req | index($k)) != null then "yes" else "no" end) |",
    (if $v.type == "object" then ($v | rows("\($p)\($k)."))
     elif $v.type == "array" and $v.items.type == "object" then ($v.items | rows("\($p)\($k)[]."))
     else empty end);
rows("")
