{# Rules' comparisons for the compare picker (generator/site/points.py): articles as _pair.html draws them, and each
   version's Markdown blocks drawn, from which the picker draws the version added or removed whole. #}
{% macro article(pair) %}{% set html %}{% include "_pair.html" %}{% endset %}{{ html | tojson_script }}{% endmacro %}
(window.NOMIC_DATA = window.NOMIC_DATA || {})[{{ key | tojson_script }}] = {
{% for identity, rule in rules.items() %}"{{ identity }}": {
{% if rule.entries is defined %}  "entries": {
{% for n, e in rule.entries.items() %}    "{{ n }}": {"text": {{ e.text | tojson_script }}, "blocks": {{ e.blocks | tojson_script }}{% if e.into is defined %}, "into": {{ article(e.into) }}{% endif %}}{{ "," if not loop.last }}
{% endfor %}  }{% else %}  "ends": {{ rule.ends | tojson_script }}{% endif %}{% if rule.whole is defined %}, "whole": {{ article(rule.whole) }}{% endif %}

}{{ "," if not loop.last }}
{% endfor %}};
