# Whether the input conforms to the JSON Schema $s (the subset that
# triage report --json-schema writes: type, required, properties,
# additionalProperties false, items, enum). Prints the paths that do not.
def bad($s; $p):
  if ($s.type | type) == "array" then
    (if any($s.type[]; . as $t | [bad($s + {type: $t}; $p)] | length == 0) then empty else $p end)
  elif $s.type == "object" then
    if type != "object" then $p
    else (($s.required // []) - keys | .[] | "\($p).\(.) missing"),
         (keys - ($s.properties | keys) | .[] | "\($p).\(.) not in the schema"),
         (to_entries[] | select($s.properties[.key]) | .key as $k | .value | bad($s.properties[$k]; "\($p).\($k)"))
    end
  elif $s.type == "array" then
    if type != "array" then $p else (to_entries[] | .key as $i | .value | bad($s.items; "\($p)[\($i)]")) end
  elif $s.type == "integer" then (if type == "number" and . == floor then empty else $p end)
  elif $s.type == "null" then (if . == null then empty else $p end)
  elif type != $s.type then $p
  elif $s.enum and (. as $v | any($s.enum[]; . == $v) | not) then "\($p) = \(.) not in \($s.enum)"
  else empty end;
bad($schema; "")
