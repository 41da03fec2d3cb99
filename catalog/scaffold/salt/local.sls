{#- __NAME__, local variant: stands for the production state (__NAME__.sls) on a laptop or a
    test minion, like the shipped blueprints' local states. It manages only files under the
    minion's eos_data_dir (a setting of the minion's own configuration, which
    scripts/testenv/salt.sh writes): a marker standing for the data volume and the service's
    configuration file, at the paths production uses, below that directory. No volume, package
    or mount is touched, so approving a local plan never installs anything as root. A minion
    without eos_data_dir refuses to run it, so a production host that gets this variant by
    mistake is left alone. #}
{%- set data_dir = salt['config.get']('eos_data_dir', '') %}
{%- set lv_name = salt['pillar.get']('lv_name', 'data-__NAME__') %}
{%- set lv_size = salt['pillar.get']('lv_size', '10G') | string %}
{%- set fs_type = salt['pillar.get']('fs_type', 'xfs') %}
{%- set mount_point = salt['pillar.get']('mount_point', '/srv/__NAME__') %}
{%- set domain = salt['pillar.get']('domain', '') %}
{%- set root = data_dir ~ mount_point %}
{%- if not data_dir %}

__NAME__-local-needs-data-dir:
  test.fail_without_changes:
    - comment: "the local variant writes under the minion's eos_data_dir, which is not set; use the production variant on real hosts"
{%- else %}

__NAME__-data-volume:
  file.managed:
    - name: {{ (root ~ '/.eos-volume') | yaml_dquote }}
    - makedirs: True
    - mode: '0640'
    - contents: {{ ('stands for logical volume ' ~ lv_name ~ ' (' ~ lv_size ~ ', ' ~ fs_type ~ ') mounted at ' ~ mount_point) | yaml_dquote }}

__NAME__-config:
  file.managed:
    - name: {{ (root ~ '/__NAME__.conf') | yaml_dquote }}
    - mode: '0640'
    - contents: {{ ('# managed by Eos (Salt, local variant)\ndomain=' ~ domain ~ '\ndata=' ~ root) | yaml_dquote }}
    - require:
      - file: __NAME__-data-volume
{%- endif %}
