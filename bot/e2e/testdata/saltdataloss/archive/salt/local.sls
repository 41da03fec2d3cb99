{#- The archive's data directory under the pillar's root; with purge, its removal. The tests
    only plan (test=True), which removes nothing. #}
{%- set data = pillar['root'] ~ '/data' %}

{%- if pillar['purge'] %}
archive-data:
  file.absent:
    - name: {{ data | yaml_dquote }}
{%- else %}
archive-data:
  file.directory:
    - name: {{ data | yaml_dquote }}
    - makedirs: True
{%- endif %}
