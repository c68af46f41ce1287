int sumi_plugin_placeholder(void);
