window.NOMIC_SEARCH = {{ index | tojson_script }};
