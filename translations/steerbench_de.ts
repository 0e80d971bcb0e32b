<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>main</name>
    <message>
        <source>Steerbench workbench: explore a feature space, pick targets, read and edit OpenCL kernels.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workspace to open (default: the default workspace, built from Debian&apos;s OpenCL code on first run).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Once the workspace is plotted and the engine is idle, save the main window as PNG to &lt;file&gt; and quit.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>steerbench::ui::EngineBridge</name>
    <message>
        <source>an unknown error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>steerbench::ui::FeaturePlot</name>
    <message>
        <source>Corpus kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reference benchmarks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluated kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PC1 (%1% of variance)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PC2 (%1% of variance)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 space, PCA-2 fitted on %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 space, raw dimensions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (raster: showing %1 of %2 points)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kernel #%1 %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reference %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steerbench feature-space plot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>could not write %1; check the folder&apos;s permissions and free space</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>could not write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use its features as target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>steerbench::ui::FeaturesView</name>
    <message>
        <source>Feature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 dimensions</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>steerbench::ui::JobStatus</name>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop this job; what it finished is kept</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>steerbench::ui::KernelEditor</name>
    <message>
        <source>Evaluate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compile the kernel, measure its features in every space and place it on the plot (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save to workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Store this text in the workspace as your own kernel, with where it came from (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No kernel selected: click a point on the plot, or type a kernel and Evaluate.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>steerbench::ui::KernelList</name>
    <message>
        <source>Drag a rectangle on the plot, or ask for the nearest kernels.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Distance</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>steerbench::ui::MainWindow</name>
    <message>
        <source>measured on the AST Clang recovered from errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steerbench</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot load the plot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot show the kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot evaluate the kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot list the nearest kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Steerbench</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled: what was finished is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change space</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reference %1 (not in the workspace)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show reference kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from the reference CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n kernel(s) inside the rectangle</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Clear target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernel editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Features</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New Workspace...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steerbench workspaces (*.sbw)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already exists. Open it with File &gt; Open, or pick a new name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open Workspace...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steerbench workspaces (*.sbw);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Default Workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import Reference CSV...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import reference benchmarks (DevMap layout)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export Plot...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use Selected Kernel as &amp;Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a kernel on the plot first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Nearest Kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Preferences...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Corpus kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reference benchmarks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluated kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Steerbench</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Space </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the %1 space</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> X </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Y </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PCA-2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(PCA-2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown feature space</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the workspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a folder, not a workspace file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 does not exist. Use File &gt; New Workspace to create one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is read-only (the file or its folder). Steerbench stores its results in the workspace it opens. Copy the file to a folder you can write to, or change its permissions, and open it again. The file was not changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Workspace %1: %n kernel(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 - Steerbench</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First run: building the default workspace from the OpenCL code Debian ships. This takes a few minutes; you can cancel and resume later.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Building the default corpus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped: %1 kernels are stored; open the default workspace again to go on.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The default corpus is ready: %1 kernels from %2 files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot import the reference CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the workspace kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the reference benchmarks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot show the reference layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kernel #%1 %2 (%3%4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show kernel #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Compiles: %n kernel(s) (%1). Features below; the first kernel is on the plot.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Does not compile: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The compiler crashed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>

Your text is still in the editor; change the construct on the marked line and Evaluate again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save the kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved as kernel #%1 in the workspace.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kernel #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set a target or select a kernel first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The %1 kernels nearest %2 in the full %3 space</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a plot click at PCA (%1, %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a plot click on %1 and %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use as target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edited values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot export the plot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plot written to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no OpenCL platform found (install pocl-opencl-icd)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;Steerbench %1&lt;/h3&gt;&lt;p&gt;Generates OpenCL kernels steered toward the feature vectors you choose, runs them, and exports labelled datasets.&lt;/p&gt;&lt;p&gt;Qt %2 (built with %3)&lt;br&gt;LLVM and Clang %4&lt;br&gt;libtorch %5&lt;br&gt;OpenCL: %6&lt;/p&gt;&lt;p&gt;License: GPL-3.0-or-later.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>steerbench::ui::PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feature space at start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nearest kernels to list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draw the plot with OpenGL when the platform supports it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Light</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dark</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Palette</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all cores (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads for long jobs</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>steerbench::ui::TargetTable</name>
    <message>
        <source>No target: click empty space on the plot, or use a kernel&apos;s features.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dimension</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nearest kernels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>List the corpus kernels nearest this target in the full space</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target in the %1 space, from %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
