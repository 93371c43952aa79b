window.NOMIC_GAME = {{ data | tojson_script }};
