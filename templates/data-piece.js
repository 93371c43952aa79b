(window.NOMIC_DATA = window.NOMIC_DATA || {})[{{ key | tojson_script }}] = {{ data | tojson_script }};
