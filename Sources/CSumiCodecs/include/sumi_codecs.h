void sumi_codecs_placeholder(void);
