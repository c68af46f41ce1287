extension ManPage {
    /// The prose of the man page, as roff: what the option table does not hold.
    enum Prose {
        static let description = #"""
.SH DESCRIPTION
.B sumi
runs image pipelines: a graph of stages (decode, scale, crop, trim, rotate, flip, pad, text, place, blend,
encode, stitch, recognize, pdf-page, blur, sharpen, adjust, flatten, round, and those of plugins)
described by a JSON manifest, or written on one line in the style of
.BR gst\-launch (1).
The whole graph is checked (stage names, parameter types and ranges, port types, references,
cycles) before the first pixel is decoded.
"""#

        static let rest = #"""
.SH INLINE PIPELINES
.nf
sumi run 'decode path=in.jpg ! scale width=1024 fit=contain ! encode path=out.webp'
sumi run 'decode id=photo path=in.jpg ! encode path=big.png  photo. ! scale width=64 ! encode path=small.png'
.fi
.PP
.B !
links an element to the next element's first free input port.
.BI id= NAME
names an element;
.IB NAME .
refers to it (a branch starts from it), and
.IB NAME . PORT
links into one of its ports. Values are parsed by the parameter's type; quote values that hold
spaces. A decode without
.B path
reads the input
.RB ( \-i ),
an encode without
.B path
writes the output
.RB ( \-o ).
Errors name the column.
.B \-\-print\-inline
prints a manifest in this form.
.SH INPUTS
Inputs follow the manifest or
.BR \-i :
files; folders (images by extension and content;
.B \-r
descends into sub-folders; other files are skipped with a warning, or refused with
.BR \-\-strict );
glob patterns the shell left unexpanded (matching nothing is an error);
.BI @ LIST
(one path a line, blank and
.B #
lines skipped) and
.B @\-
(the list on standard input); a list holds at most 256 MiB. Several inputs run the pipeline once each, up to
.B \-\-jobs
at once.
.SH OUTPUT TEMPLATES
In a batch,
.B \-o
is a folder or a template; a manifest's default output may be one too:
.TP
.B {stem}
the input's file name without extension
.TP
.B {name}
the input's file name
.TP
.B {ext}
its extension, without the dot
.TP
.B {dir}
its folder below the folder input it was found in (a recursive batch mirrors its tree)
.TP
.B {n}
its position in the whole input list, from 1
.PP
Two inputs that would write one file are an error before anything runs, and so is an output that
is one of the inputs (the same file by device and inode, or by folder and name for a file still to
be made). Tokens are filled in once (a file named
.B {n}.png
keeps its name), and a value that would leave the folder
.RB ( .. ,
the stem of
.BR ...png )
is an error. Missing output folders are created, for
.B \-o
and for a stage's own path alike, and removed again when nothing was written there.
.SH ENVIRONMENT
.TP
.B SUMI_PLUGIN_PATH
Colon-separated folders whose plugin libraries are loaded.
.TP
.B SUMI_SAFE
1, yes or true: every run is
.BR \-\-safe .
.TP
.BR SUMI_SAFE_SECONDS ", " SUMI_SAFE_MEMORY_MB
Lower the time limit (300 s) and the memory limit (4096 MB) of a safe run.
.TP
.B SUMI_MAX_PIXELS
The most pixels of any image a stage makes \(em decoded, drawn, padded, scaled or stitched
(default 178956970). A safe run allows 50000000, which it can only lower;
\fBsumi serve\fR takes \fB\-\-max\-pixels\fR instead.
.TP
.B SUMI_SHARD_COUNT
The number of parts for
.B \-\-shard auto
under a Kubernetes Indexed Job (else JOB_COMPLETIONS).
.TP
.B SUMI_SERVE_TOKEN
The bearer token of
.BR "sumi serve" ,
instead of
.BR \-\-token .
.SH EXIT STATUS
0 success; 1 a run failed; 2 a usage, manifest or validation error.
.SH FILES
.TP
.I /usr/share/sumi/pipelines
the shipped pipelines (caption, caption\-label, fullpage, page\-preview, preview, thumbnail, watermark), found by name
.RB ( "sumi run caption" );
.I /usr/local/share/sumi/pipelines
after
.BR "make install" .
.B sumi pipelines
lists them with their parameters.
.TP
.I ~/.local/share/sumi/pipelines
your own pipelines, found by name too (in
.I $XDG_DATA_HOME/sumi/pipelines
when that is set); one of a shipped pipeline's name replaces it
.TP
.I /usr/include/sumi/sumi_plugin.h
the plugin ABI;
.I /usr/share/sumi/sdk
the Swift plugin SDK package
.SH EXAMPLES
.nf
sumi pipelines caption
sumi run thumbnail \-i batch/*.jpg \-o 'thumbs/{stem}.jpg' \-\-set small.enlarge=false
sumi run thumbnail photos/ \-r \-o 'thumbs/{dir}/{stem}.webp' \-\-shard auto \-\-skip\-existing \-\-json
sumi run caption \-i photo.jpg \-o out.jpg \-\-set text='Tokyo Tower' \-\-set anchor=bottom
sumi validate template.json \-\-template \-\-json
.fi
.SH SEE ALSO
.BR gst\-launch\-1.0 (1),
.BR vips (1),
.BR magick (1)
"""#
    }
}
