{# One rule's comparisons for the compare picker (generator/site/points.py): articles as _pair.html draws them. #}
(window.NOMIC_DATA = window.NOMIC_DATA || {})[{{ key | tojson_script }}] = {"texts": {{ texts | tojson_script }}, "articles": {
{% for name, pair in articles %}{% set article %}{% include "_pair.html" %}{% endset %}{{ name | tojson_script }}: {{ article | tojson_script }}{{ "," if not loop.last }}
{% endfor %}}};
