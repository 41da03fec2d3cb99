{#- resize lvm, local variant: stands for the production state (resize.sls) on a laptop or a
    test minion. It records the requested size in a file under the minion's eos_data_dir (a
    setting of the minion's own configuration, which scripts/testenv/salt.sh writes), at
    lvm/<vg>/<lv>; no volume is touched. A minion without eos_data_dir refuses to run it. #}
{%- set data_dir = salt['config.get']('eos_data_dir', '') %}
{%- set lv_name = salt['pillar.get']('lv_name') %}
{%- set vg_name = salt['pillar.get']('vg_name', 'vg0') %}
{%- set size = salt['pillar.get']('size') | string %}
{%- if not data_dir %}

resize-lvm-local-needs-data-dir:
  test.fail_without_changes:
    - comment: "the local variant writes under the minion's eos_data_dir, which is not set; use the production variant on real hosts"
{%- else %}

resize-lvm-extend:
  file.managed:
    - name: {{ (data_dir ~ '/lvm/' ~ vg_name ~ '/' ~ lv_name) | yaml_dquote }}
    - makedirs: True
    - contents: {{ ('size ' ~ size) | yaml_dquote }}
{%- endif %}
