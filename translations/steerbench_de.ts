<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>main</name>
    <message>
        <source>Steerbench workbench: explore a feature space, pick targets, read and edit OpenCL kernels.</source>
        <translation>Steerbench-Werkbank: einen Merkmalsraum erkunden, Ziele wählen, OpenCL-Kernels lesen und bearbeiten.</translation>
    </message>
    <message>
        <source>Workspace to open (default: the default workspace, built from Debian&apos;s OpenCL code on first run).</source>
        <translation>Zu öffnender Arbeitsbereich (Vorgabe: der Standard-Arbeitsbereich, der beim ersten Start aus dem OpenCL-Code von Debian erstellt wird).</translation>
    </message>
    <message>
        <source>Once the workspace is plotted and the engine is idle, save the main window as PNG to &lt;file&gt; and quit.</source>
        <translation>Sobald der Arbeitsbereich dargestellt ist und die Engine untätig ist, das Hauptfenster als PNG in &lt;file&gt; speichern und beenden.</translation>
    </message>
    <message>
        <source>Select kernel &lt;id&gt; of the workspace once it is open.</source>
        <translation>Kernel &lt;id&gt; des Arbeitsbereichs auswählen, sobald er geöffnet ist.</translation>
    </message>
    <message>
        <source>Show feature space &lt;name&gt; (grewe, instcount, autophase).</source>
        <translation>Merkmalsraum &lt;name&gt; anzeigen (grewe, instcount, autophase).</translation>
    </message>
    <message>
        <source>Bring dock &lt;name&gt; to the front (features, training, devices, steering, evaluation).</source>
        <translation>Dock &lt;name&gt; in den Vordergrund holen (features, training, devices, steering, evaluation).</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::DevicePanel</name>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Compute units</source>
        <translation>Recheneinheiten</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Max work-group</source>
        <translation>Max. Work-Group</translation>
    </message>
    <message>
        <source>Global sizes to sweep, separated by commas</source>
        <translation>Zu durchlaufende globale Größen, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>Local sizes to sweep, separated by commas (0: the runtime chooses)</source>
        <translation>Zu durchlaufende lokale Größen, durch Kommas getrennt (0: die Laufzeitumgebung wählt)</translation>
    </message>
    <message>
        <source>Timed runs per case, after two warm-up runs that are discarded</source>
        <translation>Gemessene Läufe je Fall, nach zwei Aufwärmläufen, die verworfen werden</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>How long one kernel may run on one device at one size before its worker is killed</source>
        <translation>Wie lange ein Kernel auf einem Gerät bei einer Größe laufen darf, bevor sein Worker-Prozess beendet wird</translation>
    </message>
    <message>
        <source>Global sizes</source>
        <translation>Globale Größen</translation>
    </message>
    <message>
        <source>Local sizes</source>
        <translation>Lokale Größen</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Läufe</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>Zeitlimit</translation>
    </message>
    <message>
        <source>Run editor&apos;s kernel</source>
        <translation>Kernel aus dem Editor ausführen</translation>
    </message>
    <message>
        <source>Run selected kernels</source>
        <translation>Ausgewählte Kernels ausführen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation>CSV exportieren...</translation>
    </message>
    <message>
        <source>Write the workspace&apos;s labelled cases as a DevMap-layout CSV</source>
        <translation>Die gelabelten Fälle des Arbeitsbereichs als CSV im DevMap-Format schreiben</translation>
    </message>
    <message>
        <source>Drive kernels to time them on every device.</source>
        <translation>Führen Sie Kernels aus, um ihre Laufzeit auf jedem Gerät zu messen.</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <source>Global</source>
        <translation>Global</translation>
    </message>
    <message>
        <source>Local</source>
        <translation>Lokal</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Fastest</source>
        <translation>Am schnellsten</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Label</translation>
    </message>
    <message>
        <source>Total time per run (µs)</source>
        <translation>Gesamtzeit pro Lauf (µs)</translation>
    </message>
    <message>
        <source>Cancelled; the cases driven so far are stored.</source>
        <translation>Abgebrochen; die bisher ausgeführten Fälle sind gespeichert.</translation>
    </message>
    <message>
        <source>%1 on %2, driver %3 (id %4)</source>
        <translation>%1 auf %2, Treiber %3 (ID %4)</translation>
    </message>
    <message>
        <source>%1 MiB global, %2 KiB local</source>
        <translation>%1 MiB global, %2 KiB lokal</translation>
    </message>
    <message>
        <source>No OpenCL device found. Install an OpenCL driver (on Debian: pocl-opencl-icd).</source>
        <translation>Kein OpenCL-Gerät gefunden. Installieren Sie einen OpenCL-Treiber (unter Debian: pocl-opencl-icd).</translation>
    </message>
    <message>
        <source>Global sizes must be a comma list of numbers from 1 to 268435456.</source>
        <translation>Globale Größen müssen eine durch Kommas getrennte Liste von Zahlen von 1 bis 268435456 sein.</translation>
    </message>
    <message>
        <source>Local sizes must be a comma list of numbers (0: the runtime chooses).</source>
        <translation>Lokale Größen müssen eine durch Kommas getrennte Liste von Zahlen sein (0: die Laufzeitumgebung wählt).</translation>
    </message>
    <message>
        <source>The editor is empty: open or write a kernel first.</source>
        <translation>Der Editor ist leer: Öffnen oder schreiben Sie zuerst einen Kernel.</translation>
    </message>
    <message>
        <source>Driving %1</source>
        <translation>%1 wird ausgeführt</translation>
    </message>
    <message>
        <source>Select kernels first: click one in the plot or the list, or drag a rectangle.</source>
        <translation>Wählen Sie zuerst Kernels aus: Klicken Sie auf einen im Diagramm oder in der Liste, oder ziehen Sie ein Rechteck auf.</translation>
    </message>
    <message numerus="yes">
        <source>Driving %n kernel(s)</source>
        <translation>
            <numerusform>%n Kernel wird ausgeführt</numerusform>
            <numerusform>%n Kernels werden ausgeführt</numerusform>
        </translation>
    </message>
    <message>
        <source>A drive is running; cancel it first.</source>
        <translation>Es läuft bereits eine Ausführung; brechen Sie sie zuerst ab.</translation>
    </message>
    <message>
        <source>Driving...</source>
        <translation>Wird ausgeführt...</translation>
    </message>
    <message numerus="yes">
        <source>%n case(s) driven and stored in the workspace.</source>
        <translation>
            <numerusform>%n Fall ausgeführt und im Arbeitsbereich gespeichert.</numerusform>
            <numerusform>%n Fälle ausgeführt und im Arbeitsbereich gespeichert.</numerusform>
        </translation>
    </message>
    <message>
        <source>Clang rejected: %1</source>
        <translation>Von Clang abgelehnt: %1</translation>
    </message>
    <message>
        <source>%1 (µs, 95% interval)</source>
        <translation>%1 (µs, 95-%-Intervall)</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>auto</translation>
    </message>
    <message>
        <source>kernel median %1 µs, transfer median %2 µs, %3 runs</source>
        <translation>Kernel-Median %1 µs, Transfer-Median %2 µs, %3 Läufe</translation>
    </message>
    <message>
        <source>Total time per run (µs): nothing measured for this case</source>
        <translation>Gesamtzeit pro Lauf (µs): für diesen Fall nichts gemessen</translation>
    </message>
    <message>
        <source>Total time per run (µs): %1, global %2</source>
        <translation>Gesamtzeit pro Lauf (µs): %1, global %2</translation>
    </message>
    <message>
        <source>Export labelled kernels</source>
        <translation>Gelabelte Kernels exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n labelled case(s) to %1 (%2 left out: not PASS, or fewer than two devices).</source>
        <translation>
            <numerusform>%n gelabelter Fall nach %1 geschrieben (%2 ausgelassen: nicht PASS oder weniger als zwei Geräte).</numerusform>
            <numerusform>%n gelabelte Fälle nach %1 geschrieben (%2 ausgelassen: nicht PASS oder weniger als zwei Geräte).</numerusform>
        </translation>
    </message>
    <message>
        <source>Payload</source>
        <translation>Payload</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::EditorController</name>
    <message>
        <source>measured on the AST Clang recovered from errors</source>
        <translation>gemessen am AST, den Clang trotz Fehlern wiederhergestellt hat</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>nicht gemessen</translation>
    </message>
    <message>
        <source>Kernel #%1 %2 (%3%4)</source>
        <translation>Kernel #%1 %2 (%3%4)</translation>
    </message>
    <message>
        <source>Show kernel #%1</source>
        <translation>Kernel #%1 anzeigen</translation>
    </message>
    <message numerus="yes">
        <source>Compiles: %n kernel(s) (%1). Features below; the first kernel is on the plot.</source>
        <translation>
            <numerusform>Kompiliert: %n Kernel (%1). Merkmale siehe unten; der Kernel ist im Diagramm eingezeichnet.</numerusform>
            <numerusform>Kompiliert: %n Kernels (%1). Merkmale siehe unten; der erste Kernel ist im Diagramm eingezeichnet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Does not compile: %1</source>
        <translation>Kompiliert nicht: %1</translation>
    </message>
    <message>
        <source>Evaluated kernel</source>
        <translation>Ausgewerteter Kernel</translation>
    </message>
    <message>
        <source>The compiler crashed</source>
        <translation>Der Compiler ist abgestürzt</translation>
    </message>
    <message>
        <source>

Your text is still in the editor; change the construct on the marked line and Evaluate again.</source>
        <translation>

Ihr Text ist noch im Editor; ändern Sie das Konstrukt in der markierten Zeile und werten Sie erneut aus.</translation>
    </message>
    <message>
        <source>Cannot save the kernel</source>
        <translation>Der Kernel kann nicht gespeichert werden</translation>
    </message>
    <message>
        <source>Saved as kernel #%1 in the workspace.</source>
        <translation>Als Kernel #%1 im Arbeitsbereich gespeichert.</translation>
    </message>
    <message>
        <source>Put [HOLE] where the model should write, then Fill holes.</source>
        <translation>[HOLE] dort einfügen, wo das Modell schreiben soll, dann „Lücken füllen“.</translation>
    </message>
    <message>
        <source>No model to fill holes</source>
        <translation>Kein Modell zum Füllen der Lücken</translation>
    </message>
    <message>
        <source>There is no trained model for this workspace (%1), and no default model is installed. Train one with:

  steerbench-cli train -w %2

and Fill holes again.</source>
        <translation>Für diesen Arbeitsbereich gibt es kein trainiertes Modell (%1), und es ist kein Standard-Modell installiert. Trainieren Sie eines mit:

  steerbench-cli train -w %2

und klicken Sie dann erneut auf „Lücken füllen“.</translation>
    </message>
    <message>
        <source>Cannot fill the holes</source>
        <translation>Die Lücken können nicht gefüllt werden</translation>
    </message>
    <message>
        <source>Fill holes</source>
        <translation>Lücken füllen</translation>
    </message>
    <message>
        <source>The model wrote %1 tokens (model %2, seed %3). Ctrl+Z takes them back.</source>
        <translation>Das Modell hat %1 Tokens geschrieben (Modell %2, Seed %3). Strg+Z nimmt sie zurück.</translation>
    </message>
    <message>
        <source>The model wrote %1 tokens and stopped before closing every hole: the token limit, or statements that would not compile (model %2, seed %3).</source>
        <translation>Das Modell hat %1 Tokens geschrieben und aufgehört, bevor alle Lücken geschlossen waren: die Token-Grenze, oder Anweisungen, die sich nicht kompilieren ließen (Modell %2, Seed %3).</translation>
    </message>
    <message>
        <source>Follow the steering run</source>
        <translation>Steuerungslauf folgen</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::EngineBridge</name>
    <message>
        <source>an unknown error</source>
        <translation>ein unbekannter Fehler</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::EvaluationPanel</name>
    <message>
        <source>This workspace&apos;s labels</source>
        <translation>Labels dieses Arbeitsbereichs</translation>
    </message>
    <message>
        <source>DevMap AMD (cgo17-amd.csv)</source>
        <translation>DevMap AMD (cgo17-amd.csv)</translation>
    </message>
    <message>
        <source>DevMap NVIDIA (cgo17-nvidia.csv)</source>
        <translation>DevMap NVIDIA (cgo17-nvidia.csv)</translation>
    </message>
    <message>
        <source>A DevMap-layout CSV…</source>
        <translation>Eine CSV im DevMap-Format…</translation>
    </message>
    <message>
        <source>The labelled rows the tree is cross-validated on; test folds come only from here</source>
        <translation>Die gelabelten Zeilen, auf denen der Baum kreuzvalidiert wird; Test-Folds stammen nur von hier</translation>
    </message>
    <message>
        <source>Data:</source>
        <translation>Daten:</translation>
    </message>
    <message>
        <source>Evaluate on a CSV</source>
        <translation>Auf einer CSV auswerten</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Augment the training folds with:</source>
        <translation>Die Trainings-Folds ergänzen um:</translation>
    </message>
    <message>
        <source>Added rows join every training fold and never a test fold; the results show the evaluation without and with them side by side</source>
        <translation>Hinzugefügte Zeilen kommen in jeden Trainings-Fold und nie in einen Test-Fold; die Ergebnisse zeigen die Auswertung ohne und mit ihnen nebeneinander</translation>
    </message>
    <message>
        <source>Workspace labels</source>
        <translation>Arbeitsbereichs-Labels</translation>
    </message>
    <message>
        <source>Add this workspace&apos;s labelled drive cases as training rows</source>
        <translation>Die gelabelten Fälle dieses Arbeitsbereichs als Trainingszeilen hinzufügen</translation>
    </message>
    <message>
        <source>CSV…</source>
        <translation>CSV…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Stratified k-fold</source>
        <translation>Stratifizierte k-fache Kreuzvalidierung</translation>
    </message>
    <message>
        <source>Leave one benchmark out</source>
        <translation>Ein Benchmark auslassen (leave one out)</translation>
    </message>
    <message>
        <source>k = </source>
        <translation>k = </translation>
    </message>
    <message>
        <source>seed </source>
        <translation>Seed </translation>
    </message>
    <message>
        <source>Seed of the fold split; 204 gives the split of DeepTune&apos;s published numbers</source>
        <translation>Seed der Fold-Aufteilung; 204 ergibt die Aufteilung der von DeepTune veröffentlichten Zahlen</translation>
    </message>
    <message>
        <source>Protocol:</source>
        <translation>Protokoll:</translation>
    </message>
    <message>
        <source>Grewe F1–F4</source>
        <translation>Grewe F1–F4</translation>
    </message>
    <message>
        <source>F1–F4 and the raw counts</source>
        <translation>F1–F4 und die Rohzählungen</translation>
    </message>
    <message>
        <source>Features:</source>
        <translation>Merkmale:</translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation>Auswerten</translation>
    </message>
    <message>
        <source>Cross-validate the Grewe et al. decision tree (entropy, depth 5, at least 5 per leaf)</source>
        <translation>Den Entscheidungsbaum nach Grewe et al. kreuzvalidieren (Entropie, Tiefe 5, mindestens 5 je Blatt)</translation>
    </message>
    <message>
        <source>Choose the data and press Evaluate.</source>
        <translation>Wählen Sie die Daten und klicken Sie auf „Auswerten“.</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Speedup over static mapping per benchmark</source>
        <translation>Beschleunigung gegenüber statischer Zuordnung je Benchmark</translation>
    </message>
    <message>
        <source>(no file chosen)</source>
        <translation>(keine Datei gewählt)</translation>
    </message>
    <message>
        <source>Add training rows</source>
        <translation>Trainingszeilen hinzufügen</translation>
    </message>
    <message>
        <source>Choose a CSV to evaluate on first.</source>
        <translation>Wählen Sie zuerst eine CSV zum Auswerten.</translation>
    </message>
    <message>
        <source>Evaluating…</source>
        <translation>Wird ausgewertet…</translation>
    </message>
    <message>
        <source>Evaluating the Grewe heuristic</source>
        <translation>Die Grewe-Heuristik wird ausgewertet</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>Without augmentation</source>
        <translation>Ohne Ergänzung</translation>
    </message>
    <message numerus="yes">
        <source>With %n added row(s)</source>
        <translation>
            <numerusform>Mit %n hinzugefügter Zeile</numerusform>
            <numerusform>Mit %n hinzugefügten Zeilen</numerusform>
        </translation>
    </message>
    <message>
        <source>Rows evaluated</source>
        <translation>Ausgewertete Zeilen</translation>
    </message>
    <message>
        <source>Training rows per fold</source>
        <translation>Trainingszeilen je Fold</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Genauigkeit</translation>
    </message>
    <message>
        <source>Precision (GPU positive)</source>
        <translation>Präzision (GPU positiv)</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>Sensitivität</translation>
    </message>
    <message>
        <source>Specificity</source>
        <translation>Spezifität</translation>
    </message>
    <message>
        <source>Static mapping</source>
        <translation>Statische Zuordnung</translation>
    </message>
    <message>
        <source>Speedup over static (mean)</source>
        <translation>Beschleunigung ggü. statisch (Mittel)</translation>
    </message>
    <message>
        <source>Speedup over static (geomean)</source>
        <translation>Beschleunigung ggü. statisch (geom. Mittel)</translation>
    </message>
    <message>
        <source>Oracle speedup (mean)</source>
        <translation>Orakel-Beschleunigung (Mittel)</translation>
    </message>
    <message>
        <source>Oracle speedup (geomean)</source>
        <translation>Orakel-Beschleunigung (geom. Mittel)</translation>
    </message>
    <message>
        <source>%1, right on %2</source>
        <translation>%1, richtig bei %2</translation>
    </message>
    <message>
        <source>Oracle</source>
        <translation>Orakel</translation>
    </message>
    <message>
        <source>speedup over static mapping (%1)</source>
        <translation>Beschleunigung gegenüber statischer Zuordnung (%1)</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) of %1 benchmark(s): accuracy %2, speedup over static %3 (oracle %4).</source>
        <translation>
            <numerusform>%n Zeile aus %1 Benchmark(s): Genauigkeit %2, Beschleunigung ggü. statisch %3 (Orakel %4).</numerusform>
            <numerusform>%n Zeilen aus %1 Benchmark(s): Genauigkeit %2, Beschleunigung ggü. statisch %3 (Orakel %4).</numerusform>
        </translation>
    </message>
    <message>
        <source>With augmentation: accuracy %1, speedup %2.</source>
        <translation>Mit Ergänzung: Genauigkeit %1, Beschleunigung %2.</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV exportieren…</translation>
    </message>
    <message>
        <source>Write the results (spec, metrics, per-benchmark speedups) as a CSV</source>
        <translation>Die Ergebnisse (Spezifikation, Metriken, Beschleunigungen je Benchmark) als CSV schreiben</translation>
    </message>
    <message>
        <source>Evaluate first: there are no results to export.</source>
        <translation>Zuerst auswerten: Es gibt noch keine Ergebnisse zum Exportieren.</translation>
    </message>
    <message>
        <source>Export the evaluation</source>
        <translation>Die Auswertung exportieren</translation>
    </message>
    <message>
        <source>Wrote the evaluation to %1.</source>
        <translation>Die Auswertung wurde nach %1 geschrieben.</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::FeaturePlot</name>
    <message>
        <source>Corpus kernels</source>
        <translation>Korpus-Kernels</translation>
    </message>
    <message>
        <source>Your kernels</source>
        <translation>Eigene Kernels</translation>
    </message>
    <message>
        <source>Reference benchmarks</source>
        <translation>Referenz-Benchmarks</translation>
    </message>
    <message>
        <source>Evaluated kernel</source>
        <translation>Ausgewerteter Kernel</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>PC1 (%1% of variance)</source>
        <translation>PC1 (%1 % der Varianz)</translation>
    </message>
    <message>
        <source>PC2 (%1% of variance)</source>
        <translation>PC2 (%1 % der Varianz)</translation>
    </message>
    <message>
        <source>%1 space, PCA-2 fitted on %2</source>
        <translation>%1-Raum, PCA-2 berechnet aus %2</translation>
    </message>
    <message>
        <source>%1 space, raw dimensions</source>
        <translation>%1-Raum, Rohdimensionen</translation>
    </message>
    <message>
        <source>kernel #%1 %2 (%3)</source>
        <translation>Kernel #%1 %2 (%3)</translation>
    </message>
    <message>
        <source>reference %1</source>
        <translation>Referenz %1</translation>
    </message>
    <message>
        <source>Steerbench feature-space plot</source>
        <translation>Steerbench-Merkmalsraumdiagramm</translation>
    </message>
    <message>
        <source>could not write %1: %2</source>
        <translation>%1 konnte nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Use its features as target</source>
        <translation>Seine Merkmale als Ziel verwenden</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>Zoom zurücksetzen</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>Korpus</translation>
    </message>
    <message>
        <source>Yours</source>
        <translation>Eigene</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <source>Evaluated</source>
        <translation>Ausgewertet</translation>
    </message>
    <message>
        <source> (drawing %1 of %2 points: one per sub-pixel cell)</source>
        <translation> (%1 von %2 Punkten gezeichnet: einer je Subpixel-Zelle)</translation>
    </message>
    <message>
        <source>Steering path</source>
        <translation>Steuerungspfad</translation>
    </message>
    <message>
        <source>Committee disagreement</source>
        <translation>Uneinigkeit des Komitees</translation>
    </message>
    <message>
        <source>From your click to the target</source>
        <translation>Von Ihrem Klick zum Ziel</translation>
    </message>
    <message>
        <source>Your click</source>
        <translation>Ihr Klick</translation>
    </message>
    <message>
        <source>Steered candidates (violet early, red late)</source>
        <translation>Gesteuerte Kandidaten (violett früh, rot spät)</translation>
    </message>
    <message>
        <source>Your click, joined to the target</source>
        <translation>Ihr Klick, mit dem Ziel verbunden</translation>
    </message>
    <message>
        <source>Generated</source>
        <translation>Generiert</translation>
    </message>
    <message>
        <source>Generated kernels</source>
        <translation>Generierte Kernels</translation>
    </message>
    <message>
        <source>Sample a grid over this view (raw axes of two Grewe counts)</source>
        <translation>Ein Raster über diese Ansicht sampeln (Rohachsen zweier Grewe-Zählungen)</translation>
    </message>
    <message>
        <source>Sample a grid over this view (%1)</source>
        <translation>Ein Raster über diese Ansicht sampeln (%1)</translation>
    </message>
    <message>
        <source>Samples as they arrive</source>
        <translation>Samples beim Eintreffen</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::FeaturesView</name>
    <message>
        <source>Feature</source>
        <translation>Merkmal</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>%1 dimensions</source>
        <translation>%1 Dimensionen</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::JobStatus</name>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Stop this job; what it finished is kept</source>
        <translation>Diesen Auftrag anhalten; bereits Erledigtes bleibt erhalten</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>About %1 left</source>
        <translation>Noch etwa %1</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::KernelEditor</name>
    <message>
        <source>Evaluate</source>
        <translation>Auswerten</translation>
    </message>
    <message>
        <source>Compile the kernel, measure its features in every space and place it on the plot (%1)</source>
        <translation>Kernel kompilieren, seine Merkmale in jedem Raum messen und ihn im Diagramm einzeichnen (%1)</translation>
    </message>
    <message>
        <source>Save to workspace</source>
        <translation>Im Arbeitsbereich speichern</translation>
    </message>
    <message>
        <source>Store this text in the workspace as your own kernel, with where it came from (%1)</source>
        <translation>Diesen Text als eigenen Kernel mit Herkunftsangabe im Arbeitsbereich speichern (%1)</translation>
    </message>
    <message>
        <source>No kernel selected: click a point on the plot, or type a kernel and Evaluate.</source>
        <translation>Kein Kernel ausgewählt: Klicken Sie auf einen Punkt im Diagramm oder geben Sie einen Kernel ein und klicken Sie auf „Auswerten“.</translation>
    </message>
    <message>
        <source>Fill holes</source>
        <translation>Lücken füllen</translation>
    </message>
    <message>
        <source>Put [HOLE] anywhere in the kernel, then let the model fill it (%1)</source>
        <translation>[HOLE] irgendwo in den Kernel setzen und vom Modell füllen lassen (%1)</translation>
    </message>
    <message>
        <source>Steer from here</source>
        <translation>Von hier steuern</translation>
    </message>
    <message>
        <source>Start a steering run toward the target from this kernel</source>
        <translation>Einen Steuerungslauf von diesem Kernel aus zum Ziel starten</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::KernelList</name>
    <message>
        <source>Drag a rectangle on the plot, or ask for the nearest kernels.</source>
        <translation>Ziehen Sie ein Rechteck im Diagramm auf oder lassen Sie sich die nächsten Kernels anzeigen.</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>Rolle</translation>
    </message>
    <message>
        <source>Distance</source>
        <translation>Abstand</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::MainActions</name>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Steerbench</source>
        <translation>Ü&amp;ber Steerbench</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;New Workspace...</source>
        <translation>&amp;Neuer Arbeitsbereich...</translation>
    </message>
    <message>
        <source>New workspace</source>
        <translation>Neuer Arbeitsbereich</translation>
    </message>
    <message>
        <source>Steerbench workspaces (*.sbw)</source>
        <translation>Steerbench-Arbeitsbereiche (*.sbw)</translation>
    </message>
    <message>
        <source>Cannot create the workspace</source>
        <translation>Der Arbeitsbereich kann nicht erstellt werden</translation>
    </message>
    <message>
        <source>%1 already exists. Open it with File &gt; Open, or pick a new name.</source>
        <translation>%1 existiert bereits. Öffnen Sie die Datei über Datei &gt; Öffnen oder wählen Sie einen neuen Namen.</translation>
    </message>
    <message>
        <source>&amp;Open Workspace...</source>
        <translation>Arbeitsbereich ö&amp;ffnen...</translation>
    </message>
    <message>
        <source>Open workspace</source>
        <translation>Arbeitsbereich öffnen</translation>
    </message>
    <message>
        <source>Steerbench workspaces (*.sbw);;All files (*)</source>
        <translation>Steerbench-Arbeitsbereiche (*.sbw);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>Open &amp;Default Workspace</source>
        <translation>&amp;Standard-Arbeitsbereich öffnen</translation>
    </message>
    <message>
        <source>&amp;Add Kernel Files...</source>
        <translation>Kernel-Dateien &amp;hinzufügen...</translation>
    </message>
    <message>
        <source>Add kernel files to the workspace</source>
        <translation>Kernel-Dateien zum Arbeitsbereich hinzufügen</translation>
    </message>
    <message>
        <source>OpenCL C (*.cl);;All files (*)</source>
        <translation>OpenCL C (*.cl);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Ingest &amp;Corpus Folder...</source>
        <translation>&amp;Korpus-Ordner einlesen...</translation>
    </message>
    <message>
        <source>Ingest a folder of OpenCL code</source>
        <translation>Einen Ordner mit OpenCL-Code einlesen</translation>
    </message>
    <message>
        <source>&amp;Import Reference CSV...</source>
        <translation>Referenz-CSV &amp;importieren...</translation>
    </message>
    <message>
        <source>Import reference benchmarks (DevMap layout)</source>
        <translation>Referenz-Benchmarks importieren (DevMap-Format)</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV-Dateien (*.csv);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>&amp;Export Plot...</source>
        <translation>Diagramm &amp;exportieren...</translation>
    </message>
    <message>
        <source>Export &amp;Labelled Kernels (CSV)...</source>
        <translation>Ge&amp;labelte Kernels exportieren (CSV)...</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederherstellen</translation>
    </message>
    <message>
        <source>Use Selected Kernel as &amp;Target</source>
        <translation>Ausgewählten Kernel als &amp;Ziel verwenden</translation>
    </message>
    <message>
        <source>&amp;Nearest Kernels</source>
        <translation>&amp;Nächste Kernels</translation>
    </message>
    <message>
        <source>&amp;Preferences...</source>
        <translation>&amp;Einstellungen...</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Layers</source>
        <translation>&amp;Ebenen</translation>
    </message>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation>Zoom &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>&amp;Vergrößern</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>Ver&amp;kleinern</translation>
    </message>
    <message>
        <source>Reset &amp;Layout</source>
        <translation>&amp;Layout zurücksetzen</translation>
    </message>
    <message>
        <source>Plot</source>
        <translation>Diagramm</translation>
    </message>
    <message>
        <source>Space </source>
        <translation>Raum </translation>
    </message>
    <message>
        <source>Show the %1 space</source>
        <translation>%1-Raum anzeigen</translation>
    </message>
    <message>
        <source> X </source>
        <translation> X </translation>
    </message>
    <message>
        <source> Y </source>
        <translation> Y </translation>
    </message>
    <message>
        <source> PCA on </source>
        <translation> PCA aus </translation>
    </message>
    <message>
        <source>The layer PCA-2 is fitted on (standardized vectors)</source>
        <translation>Die Ebene, auf der PCA-2 berechnet wird (standardisierte Vektoren)</translation>
    </message>
    <message>
        <source>corpus</source>
        <translation>Korpus</translation>
    </message>
    <message>
        <source>all workspace kernels</source>
        <translation>alle Kernels des Arbeitsbereichs</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <source>PCA-2</source>
        <translation>PCA-2</translation>
    </message>
    <message>
        <source>(PCA-2)</source>
        <translation>(PCA-2)</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::MainWindow</name>
    <message>
        <source>Steerbench</source>
        <translation>Steerbench</translation>
    </message>
    <message>
        <source>No workspace</source>
        <translation>Kein Arbeitsbereich</translation>
    </message>
    <message>
        <source>Cannot load the plot</source>
        <translation>Das Diagramm kann nicht geladen werden</translation>
    </message>
    <message>
        <source>Cannot show the kernel</source>
        <translation>Der Kernel kann nicht angezeigt werden</translation>
    </message>
    <message>
        <source>Cannot evaluate the kernel</source>
        <translation>Der Kernel kann nicht ausgewertet werden</translation>
    </message>
    <message>
        <source>Cannot list the nearest kernels</source>
        <translation>Die nächsten Kernels können nicht aufgelistet werden</translation>
    </message>
    <message>
        <source>About Steerbench</source>
        <translation>Über Steerbench</translation>
    </message>
    <message>
        <source>Cancelled: what was finished is kept.</source>
        <translation>Abgebrochen: Bereits Erledigtes bleibt erhalten.</translation>
    </message>
    <message>
        <source>Change space</source>
        <translation>Raum wechseln</translation>
    </message>
    <message>
        <source>Reference %1 (not in the workspace)</source>
        <translation>Referenz %1 (nicht im Arbeitsbereich)</translation>
    </message>
    <message>
        <source>Show reference kernel</source>
        <translation>Referenz-Kernel anzeigen</translation>
    </message>
    <message>
        <source>from the reference CSV</source>
        <translation>aus der Referenz-CSV</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>Referenz</translation>
    </message>
    <message numerus="yes">
        <source>%n kernel(s) inside the rectangle</source>
        <translation>
            <numerusform>%n Kernel im Rechteck</numerusform>
            <numerusform>%n Kernels im Rechteck</numerusform>
        </translation>
    </message>
    <message>
        <source>Features</source>
        <translation>Merkmale</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>Kernels</translation>
    </message>
    <message>
        <source>Unknown feature space</source>
        <translation>Unbekannter Merkmalsraum</translation>
    </message>
    <message numerus="yes">
        <source>Workspace %1: %n kernel(s)</source>
        <translation>
            <numerusform>Arbeitsbereich %1: %n Kernel</numerusform>
            <numerusform>Arbeitsbereich %1: %n Kernels</numerusform>
        </translation>
    </message>
    <message>
        <source>Use as target</source>
        <translation>Als Ziel verwenden</translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG-Bild (*.png);;SVG-Zeichnung (*.svg)</translation>
    </message>
    <message>
        <source>Cannot export the plot</source>
        <translation>Das Diagramm kann nicht exportiert werden</translation>
    </message>
    <message>
        <source>Plot written to %1</source>
        <translation>Diagramm nach %1 geschrieben</translation>
    </message>
    <message>
        <source>no OpenCL platform found (install pocl-opencl-icd)</source>
        <translation>keine OpenCL-Plattform gefunden (installieren Sie pocl-opencl-icd)</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Steerbench %1&lt;/h3&gt;&lt;p&gt;Generates OpenCL kernels steered toward the feature vectors you choose, runs them, and exports labelled datasets.&lt;/p&gt;&lt;p&gt;Qt %2 (built with %3)&lt;br&gt;LLVM and Clang %4&lt;br&gt;libtorch %5&lt;br&gt;OpenCL: %6&lt;/p&gt;&lt;p&gt;License: GPL-3.0-or-later.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Steerbench %1&lt;/h3&gt;&lt;p&gt;Erzeugt OpenCL-Kernels, die gezielt auf die von Ihnen gewählten Merkmalsvektoren hin gesteuert werden, führt sie aus und exportiert gelabelte Datensätze.&lt;/p&gt;&lt;p&gt;Qt %2 (erstellt mit %3)&lt;br&gt;LLVM und Clang %4&lt;br&gt;libtorch %5&lt;br&gt;OpenCL: %6&lt;/p&gt;&lt;p&gt;Lizenz: GPL-3.0-or-later.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>Geräte</translation>
    </message>
    <message>
        <source>Steering</source>
        <translation>Steuerung</translation>
    </message>
    <message>
        <source>The committee&apos;s layer is in the Grewe space: switch to it to see it.</source>
        <translation>Die Ebene des Komitees liegt im Grewe-Raum: Wechseln Sie dorthin, um sie zu sehen.</translation>
    </message>
    <message>
        <source>Use a suggested target</source>
        <translation>Vorgeschlagenes Ziel verwenden</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>Auswertung</translation>
    </message>
    <message>
        <source>Cannot set the target</source>
        <translation>Das Ziel kann nicht festgelegt werden</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Feature space at start</source>
        <translation>Merkmalsraum beim Start</translation>
    </message>
    <message>
        <source>Nearest kernels to list</source>
        <translation>Anzahl aufzulistender nächster Kernels</translation>
    </message>
    <message>
        <source>Draw the plot with OpenGL when the platform supports it</source>
        <translation>Diagramm mit OpenGL zeichnen, wenn die Plattform es unterstützt</translation>
    </message>
    <message>
        <source>Plot</source>
        <translation>Diagramm</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>Wie das System</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>Palette</source>
        <translation>Farbschema</translation>
    </message>
    <message>
        <source>all cores (%1)</source>
        <translation>alle Kerne (%1)</translation>
    </message>
    <message>
        <source>Threads for long jobs</source>
        <translation>Threads für lange Aufträge</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::SteeringPanel</name>
    <message>
        <source>No target: click empty space on the plot, or use a kernel&apos;s features.</source>
        <translation>Kein Ziel: Klicken Sie auf eine leere Stelle im Diagramm oder verwenden Sie die Merkmale eines Kernels.</translation>
    </message>
    <message>
        <source>Beam members kept per generation</source>
        <translation>Je Generation behaltene Beam-Mitglieder</translation>
    </message>
    <message>
        <source>Infills per beam member and generation</source>
        <translation>Lückenfüllungen je Beam-Mitglied und Generation</translation>
    </message>
    <message>
        <source>Generations after the seeds</source>
        <translation>Generationen nach den Startkernels</translation>
    </message>
    <message>
        <source>Fewest tokens a hole replaces</source>
        <translation>Mindestzahl der Tokens, die eine Lücke ersetzt</translation>
    </message>
    <message>
        <source>Most tokens a hole replaces</source>
        <translation>Höchstzahl der Tokens, die eine Lücke ersetzt</translation>
    </message>
    <message>
        <source>Random seed: the same seed and target give the same run</source>
        <translation>Zufallsstartwert: Gleicher Startwert und gleiches Ziel ergeben denselben Lauf</translation>
    </message>
    <message>
        <source>Sampling temperature</source>
        <translation>Sampling-Temperatur</translation>
    </message>
    <message>
        <source>Probability that a kept slot is swapped for a lower-ranked candidate</source>
        <translation>Wahrscheinlichkeit, dass ein behaltener Platz gegen einen niedriger eingestuften Kandidaten getauscht wird</translation>
    </message>
    <message>
        <source>Stop after this many seconds (0: no limit)</source>
        <translation>Nach so vielen Sekunden anhalten (0: keine Begrenzung)</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Nearest corpus kernels</source>
        <translation>Nächste Korpus-Kernels</translation>
    </message>
    <message>
        <source>Empty kernel</source>
        <translation>Leerer Kernel</translation>
    </message>
    <message>
        <source>Generated for the target</source>
        <translation>Für das Ziel generiert</translation>
    </message>
    <message>
        <source>Beam width:</source>
        <translation>Beam-Breite:</translation>
    </message>
    <message>
        <source>Candidates per member:</source>
        <translation>Kandidaten je Mitglied:</translation>
    </message>
    <message>
        <source>Depth:</source>
        <translation>Tiefe:</translation>
    </message>
    <message>
        <source>Hole length (tokens):</source>
        <translation>Lückenlänge (Tokens):</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>Temperatur:</translation>
    </message>
    <message>
        <source>Swap probability:</source>
        <translation>Tauschwahrscheinlichkeit:</translation>
    </message>
    <message>
        <source>Time budget:</source>
        <translation>Zeitbudget:</translation>
    </message>
    <message>
        <source>Random seed:</source>
        <translation>Zufallsstartwert:</translation>
    </message>
    <message>
        <source>Seeds:</source>
        <translation>Startkernel:</translation>
    </message>
    <message>
        <source>Steer</source>
        <translation>Steuern</translation>
    </message>
    <message>
        <source>Start a beam search toward the target</source>
        <translation>Eine Beam-Suche zum Ziel starten</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>Beam median</source>
        <translation>Beam-Median</translation>
    </message>
    <message>
        <source>Target (%1): %2
%3</source>
        <translation>Ziel (%1): %2
%3</translation>
    </message>
    <message>
        <source>Set a target first: click empty space on the plot.</source>
        <translation>Legen Sie zuerst ein Ziel fest: Klicken Sie auf eine leere Stelle im Diagramm.</translation>
    </message>
    <message>
        <source>No model: train one in the Training panel, or install the default model.</source>
        <translation>Kein Modell: Trainieren Sie eines im Bereich „Training“ oder installieren Sie das Standard-Modell.</translation>
    </message>
    <message>
        <source>Steering...</source>
        <translation>Steuerung läuft...</translation>
    </message>
    <message>
        <source>Steering</source>
        <translation>Steuerung</translation>
    </message>
    <message>
        <source>Seed: %1</source>
        <translation>Startkernel: %1</translation>
    </message>
    <message>
        <source>gen %1  #%2  d=%3   seed: %4</source>
        <translation>Gen. %1  #%2  d=%3   Startkernel: %4</translation>
    </message>
    <message>
        <source>Steering failed: %1</source>
        <translation>Steuerung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Run %1 ended (%2) before any candidate compiled.</source>
        <translation>Lauf %1 wurde beendet (%2), bevor sich ein Kandidat kompilieren ließ.</translation>
    </message>
    <message>
        <source>Run %1: %2 after %3 generation(s) in %4 s. Best: distance %5, relative proximity %6%; it is kernel #%7 (role steered).</source>
        <translation>Lauf %1: %2 nach %3 Generation(en) in %4 s. Bester Kandidat: Abstand %5, relative Nähe %6 %; er ist Kernel #%7 (Rolle steered).</translation>
    </message>
    <message>
        <source>exact match</source>
        <translation>exakter Treffer</translation>
    </message>
    <message>
        <source>depth reached</source>
        <translation>Tiefe erreicht</translation>
    </message>
    <message>
        <source>time budget used</source>
        <translation>Zeitbudget aufgebraucht</translation>
    </message>
    <message>
        <source>no improvement (patience)</source>
        <translation>keine Verbesserung (Geduld)</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>no candidates</source>
        <translation>keine Kandidaten</translation>
    </message>
    <message>
        <source>Suggest targets</source>
        <translation>Ziele vorschlagen</translation>
    </message>
    <message>
        <source>Active learning: train a committee (MLPs, k-NN, K-means) on the workspace&apos;s labelled drive cases and list the points where it disagrees most; the plot shades every point scored by the disagreement</source>
        <translation>Aktives Lernen: ein Komitee (MLPs, k-NN, K-means) auf den gelabelten Fällen des Arbeitsbereichs trainieren und die Punkte auflisten, bei denen es am meisten uneins ist; das Diagramm schattiert jeden bewerteten Punkt nach der Uneinigkeit</translation>
    </message>
    <message>
        <source>Click a suggestion to make it the target</source>
        <translation>Einen Vorschlag anklicken, um ihn zum Ziel zu machen</translation>
    </message>
    <message>
        <source>Training the committee...</source>
        <translation>Das Komitee wird trainiert...</translation>
    </message>
    <message>
        <source>Cannot suggest targets</source>
        <translation>Ziele können nicht vorgeschlagen werden</translation>
    </message>
    <message numerus="yes">
        <source>The committee needs kernels driven and labelled by two devices; %n labelled case(s) so far. Drive some kernels in the Devices dock first.</source>
        <translation>
            <numerusform>Das Komitee braucht Kernels, die auf zwei Geräten ausgeführt und gelabelt wurden; bisher %n gelabelter Fall. Führen Sie zuerst im Dock „Geräte“ einige Kernels aus.</numerusform>
            <numerusform>Das Komitee braucht Kernels, die auf zwei Geräten ausgeführt und gelabelt wurden; bisher %n gelabelte Fälle. Führen Sie zuerst im Dock „Geräte“ einige Kernels aus.</numerusform>
        </translation>
    </message>
    <message>
        <source>entropy %1   comp %2, rational %3, mem %4, localmem %5, coalesced %6, atomic %7</source>
        <translation>Entropie %1   comp %2, rational %3, mem %4, localmem %5, coalesced %6, atomic %7</translation>
    </message>
    <message>
        <source>active learning: vote entropy %1</source>
        <translation>aktives Lernen: Stimmentropie %1</translation>
    </message>
    <message>
        <source>A committee of 18 trained on %1 labelled case(s) scored %2 points; the most disputed are listed below and shaded on the plot.</source>
        <translation>Ein Komitee aus 18 Modellen, trainiert auf %1 gelabelten Fällen, hat %2 Punkte bewertet; die umstrittensten stehen unten und sind im Diagramm schattiert.</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Angehalten.</translation>
    </message>
    <message>
        <source>Grammar guard</source>
        <translation>Grammatikwächter</translation>
    </message>
    <message>
        <source>Never sample a mismatched bracket, close a hole that leaves brackets open, or use a name that is never declared</source>
        <translation>Nie eine unpassende Klammer wählen, kein Loch schließen, das Klammern offen lässt, und keinen Namen verwenden, der nie deklariert wird</translation>
    </message>
    <message>
        <source>Infills:</source>
        <translation>Füllungen:</translation>
    </message>
    <message>
        <source>Compiler checks</source>
        <translation>Compilerprüfung</translation>
    </message>
    <message>
        <source>Compile each statement an infill writes as it ends, and sample it again if it has an error</source>
        <translation>Jede Anweisung einer Füllung kompilieren, sobald sie endet, und sie bei einem Fehler neu wählen</translation>
    </message>
    <message>
        <source>Patience:</source>
        <translation>Geduld:</translation>
    </message>
    <message>
        <source>Each generation, also try up to this many pairs of one member&apos;s infills applied together, where their summed feature changes predict a nearer kernel (0: none)</source>
        <translation>In jeder Generation zusätzlich bis zu so viele Paare von Infills desselben Beam-Mitglieds zusammen anwenden, wenn ihre summierten Merkmalsänderungen einen näheren Kernel vorhersagen (0: keine)</translation>
    </message>
    <message>
        <source>Combined pairs:</source>
        <translation>Kombinierte Paare:</translation>
    </message>
    <message>
        <source>At most this many beam members share one feature vector, so the beam keeps other directions besides rewordings of the best (0: no cap)</source>
        <translation>Höchstens so viele Beam-Mitglieder teilen sich einen Merkmalsvektor, damit der Beam neben Umformulierungen des Besten auch andere Richtungen behält (0: keine Grenze)</translation>
    </message>
    <message>
        <source>Members per vector:</source>
        <translation>Mitglieder je Vektor:</translation>
    </message>
    <message>
        <source>Stop after this many generations without a better best of the run (0: never)</source>
        <translation>Nach so vielen Generationen ohne besseren Bestwert des Laufs anhalten (0: nie)</translation>
    </message>
    <message>
        <source>After this many generations without a better best in the beam, the beam starts again from the seeds with new random draws; the run keeps its best (0: never)</source>
        <translation>Nach so vielen Generationen ohne besseren Bestwert im Beam beginnt der Beam mit neuen Zufallszahlen wieder bei den Startkernels; der Lauf behält seinen Bestwert (0: nie)</translation>
    </message>
    <message>
        <source>Reseed after:</source>
        <translation>Neustart nach:</translation>
    </message>
    <message>
        <source>  (the same text)</source>
        <translation>  (derselbe Text)</translation>
    </message>
    <message>
        <source>Beam:</source>
        <translation>Beam:</translation>
    </message>
    <message>
        <source>No dead code</source>
        <translation>Kein toter Code</translation>
    </message>
    <message>
        <source>A candidate that could enter the beam is compiled at -O1 too, and not kept when the IR shows its counts to be dead (folded away, no global memory written, or nothing written that depends on the input)</source>
        <translation>Ein Kandidat, der in den Beam aufgenommen werden könnte, wird zusätzlich mit -O1 kompiliert und verworfen, wenn das IR zeigt, dass seine Zählungen toter Code sind (wegoptimiert, kein globaler Speicher beschrieben oder nichts geschrieben, was von der Eingabe abhängt)</translation>
    </message>
    <message>
        <source>Best:</source>
        <translation>Bester Kandidat:</translation>
    </message>
    <message>
        <source>Must run</source>
        <translation>Muss lauffähig sein</translation>
    </message>
    <message>
        <source>A candidate becomes the run&apos;s best only once its -O1 IR shows no dead counts and the drive worker PASSes it at 4096 work-items on one device, then at drive&apos;s sizes on every device (checked at low priority while the search goes on). Off: the nearest clean candidate is the best, runnable or not.</source>
        <translation>Ein Kandidat wird erst dann zum Besten des Laufs, wenn sein -O1-IR keine Zählungen aus totem Code zeigt und der Drive-Worker ihn mit PASS besteht: zuerst mit 4096 Work-Items auf einem Gerät, dann mit den Größen von drive auf jedem Gerät (geprüft mit niedriger Priorität, während die Suche weiterläuft). Aus: Der nächstgelegene saubere Kandidat ist der Beste, ob lauffähig oder nicht.</translation>
    </message>
    <message>
        <source>Seeds per package:</source>
        <translation>Startkernel je Paket:</translation>
    </message>
    <message>
        <source>Nearest corpus kernels: at most this share of the seeds from one package, and their drive checks take the packages in turn (1: the nearest, whatever their packages)</source>
        <translation>Nächste Korpus-Kernel: höchstens dieser Anteil der Startkernel aus einem Paket, und ihre Ausführungsprüfungen nehmen die Pakete abwechselnd dran (1: die nächsten, gleich aus welchen Paketen)</translation>
    </message>
    <message>
        <source>Repairs:</source>
        <translation>Reparaturen:</translation>
    </message>
    <message>
        <source>Repair failing candidates</source>
        <translation>Durchgefallene Kandidaten reparieren</translation>
    </message>
    <message>
        <source>With drive checks, a candidate nearer than the best that fails them comes back as repairs: each edit since its nearest ancestor that passed (or its seed, if never checked) undone in one, the search&apos;s other edits kept</source>
        <translation>Mit Ausführungsprüfungen kommt ein Kandidat, der näher als der Beste ist und durchfällt, als Reparaturen zurück: in jeder ist eine Änderung seit seinem nächsten bestandenen Vorfahren (oder seinem nie geprüften Startkernel) rückgängig gemacht, die übrigen Änderungen der Suche bleiben</translation>
    </message>
    <message>
        <source>Lineage checks:</source>
        <translation>Linienprüfungen:</translation>
    </message>
    <message>
        <source>Bisect failures, check members</source>
        <translation>Fehler eingrenzen, Mitglieder prüfen</translation>
    </message>
    <message>
        <source>With drive checks, the ancestors of a failing candidate are bisected to find the edit that broke it, and while the checks are idle the least known beam member is checked too; one that fails takes its descendants out of the beam</source>
        <translation>Mit Ausführungsprüfungen werden die Vorfahren eines durchgefallenen Kandidaten halbiert durchsucht, um die Änderung zu finden, die ihn brach, und im Leerlauf wird auch das am wenigsten bekannte Beam-Mitglied geprüft; ein durchgefallenes nimmt seine Nachkommen aus dem Beam</translation>
    </message>
    <message>
        <source>Failing members:</source>
        <translation>Durchgefallene Mitglieder:</translation>
    </message>
    <message>
        <source>With drive checks, at most this many beam members come from a lineage that failed them (the member or its nearest checked ancestor); the rest of the beam goes to lineages that passed or were not checked yet (-1: any)</source>
        <translation>Mit Ausführungsprüfungen stammen höchstens so viele Beam-Mitglieder aus einer Abstammungslinie, die sie nicht bestanden hat (das Mitglied oder sein nächster geprüfter Vorfahr); der Rest des Beams geht an Linien, die bestanden haben oder noch nicht geprüft wurden (-1: beliebig viele)</translation>
    </message>
    <message>
        <source>Guided infills:</source>
        <translation>Gelenkte Füllungen:</translation>
    </message>
    <message>
        <source>Added to the logits of the tokens that move a feature the beam member lacks toward the target, taken from those of a feature it has too much of (0: none)</source>
        <translation>Wird zu den Logits der Tokens addiert, die ein Merkmal, von dem das Beam-Mitglied zu wenig hat, zum Ziel hin bewegen, und von denen eines Merkmals abgezogen, von dem es zu viel hat (0: keine Lenkung)</translation>
    </message>
    <message>
        <source>Distance to the target (y) per generation (x)</source>
        <translation>Abstand zum Ziel (y) je Generation (x)</translation>
    </message>
    <message>
        <source>Nearest</source>
        <translation>Nächster</translation>
    </message>
    <message>
        <source>Follow the best</source>
        <translation>Dem Besten folgen</translation>
    </message>
    <message>
        <source>Show the run&apos;s best kernel in the editor as it changes; off: click a step of the lineage to see it</source>
        <translation>Den besten Kernel des Laufs bei jeder Änderung im Editor anzeigen; aus: Klicken Sie auf einen Schritt der Abstammung, um ihn zu sehen</translation>
    </message>
    <message>
        <source>From the seed to the best candidate, each step a diff of the formatted kernels; click a step to see its kernel</source>
        <translation>Vom Startkernel zum besten Kandidaten, jeder Schritt ein Diff der formatierten Kernels; klicken Sie auf einen Schritt, um seinen Kernel zu sehen</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Generation %1: best distance %2 (proximity %3%), nearest %4; %5 of %6 candidates compile (%7 unclean), %8 of %9 contenders ran; %10 candidates/s, %11 s</source>
        <translation>Generation %1: bester Abstand %2 (Nähe %3 %), nächster %4; %5 von %6 Kandidaten kompilieren (%7 unsauber), %8 von %9 Anwärtern liefen; %10 Kandidaten/s, %11 s</translation>
    </message>
    <message>
        <source>Generation %1, candidate %2 (distance %3)</source>
        <translation>Generation %1, Kandidat %2 (Abstand %3)</translation>
    </message>
    <message>
        <source>gen %1  #%2  d=%3%4</source>
        <translation>Gen. %1  #%2  d=%3%4</translation>
    </message>
    <message>
        <source>  (%1)</source>
        <translation>  (%1)</translation>
    </message>
    <message>
        <source>Best so far: %1</source>
        <translation>Bisher bester: %1</translation>
    </message>
    <message>
        <source>Run %1: %2 after %3 generation(s); no candidate passed the drive checks. The nearest, candidate %4 at distance %5 (proximity %6%), ended %7.</source>
        <translation>Lauf %1: %2 nach %3 Generation(en); kein Kandidat hat die Ausführungsprüfungen bestanden. Ergebnis des nächstgelegenen, Kandidat %4 mit Abstand %5 (Nähe %6 %): %7.</translation>
    </message>
    <message>
        <source>unchecked</source>
        <translation>nicht geprüft</translation>
    </message>
    <message numerus="yes">
        <source>%1 ... %n more line(s)</source>
        <translation>
            <numerusform>%1 ... %n weitere Zeile</numerusform>
            <numerusform>%1 ... %n weitere Zeilen</numerusform>
        </translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Go on with the chosen run, which did not finish, with its own parameters and model</source>
        <translation>Den gewählten, nicht beendeten Lauf mit seinen eigenen Parametern und seinem Modell fortsetzen</translation>
    </message>
    <message>
        <source>The workspace&apos;s steering runs: choose one to see its lineage and best kernel</source>
        <translation>Die Steuerungsläufe des Arbeitsbereichs: Wählen Sie einen, um seine Abstammung und seinen besten Kernel zu sehen</translation>
    </message>
    <message>
        <source>Runs:</source>
        <translation>Läufe:</translation>
    </message>
    <message>
        <source>Run %1 (%2): %3, %4 generation(s); nearest %5, runnable %6 — %7</source>
        <translation>Lauf %1 (%2): %3, %4 Generation(en); nächster %5, lauffähig %6 — %7</translation>
    </message>
    <message>
        <source>Cannot list the steering runs: %1</source>
        <translation>Die Steuerungsläufe können nicht aufgelistet werden: %1</translation>
    </message>
    <message>
        <source>Cannot open run %1: %2</source>
        <translation>Lauf %1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Run %1 (%2): %3 after %4 generation(s) in %5 s, toward %6.</source>
        <translation>Lauf %1 (%2): %3 nach %4 Generation(en) in %5 s, Ziel %6.</translation>
    </message>
    <message>
        <source>No candidate compiled.</source>
        <translation>Kein Kandidat wurde kompiliert.</translation>
    </message>
    <message>
        <source>Its lineage leads to the best runnable candidate, #%1 (proximity %2%).</source>
        <translation>Seine Abstammung führt zum besten lauffähigen Kandidaten, #%1 (Nähe %2 %).</translation>
    </message>
    <message>
        <source>No candidate passed the drive checks; the lineage leads to the nearest, #%1 (proximity %2%).</source>
        <translation>Kein Kandidat hat die Ausführungsprüfungen bestanden; die Abstammung führt zum nächsten, #%1 (Nähe %2 %).</translation>
    </message>
    <message>
        <source>It did not finish: Resume goes on with it.</source>
        <translation>Er wurde nicht beendet: Fortsetzen setzt ihn fort.</translation>
    </message>
    <message>
        <source>Run %1: %2</source>
        <translation>Lauf %1: %2</translation>
    </message>
    <message>
        <source>Resuming run %1...</source>
        <translation>Lauf %1 wird fortgesetzt...</translation>
    </message>
    <message>
        <source>Run %1: cannot be read (%2)</source>
        <translation>Lauf %1: nicht lesbar (%2)</translation>
    </message>
    <message>
        <source>Seeds: %1.</source>
        <translation>Startkernel: %1.</translation>
    </message>
    <message>
        <source>Seeds: nearest corpus kernels.</source>
        <translation>Startkernel: die nächsten Korpus-Kernel.</translation>
    </message>
    <message>
        <source>Seeds: the empty kernel.</source>
        <translation>Startkernel: der leere Kernel.</translation>
    </message>
    <message>
        <source>Seeds: generated for the target.</source>
        <translation>Startkernel: für das Ziel generiert.</translation>
    </message>
    <message>
        <source>Seeds: given kernels.</source>
        <translation>Startkernel: vorgegebene Kernel.</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automatisch</translation>
    </message>
    <message>
        <source>Where generation 0 starts. Automatic: the nearest corpus kernels, or kernels generated for the target where no corpus kernel is nearer to it than the empty kernel (the status line says which, and why). &quot;Steer from here&quot; in the editor starts from its kernel.</source>
        <translation>Womit Generation 0 beginnt. Automatisch: die nächsten Korpus-Kernel, oder für das Ziel generierte Kernel, wo kein Korpus-Kernel ihm näher ist als der leere Kernel (die Statuszeile sagt, welche und warum). „Von hier steuern“ im Editor startet von dessen Kernel.</translation>
    </message>
    <message>
        <source>Kernels &quot;Sample toward target&quot; writes, each held near its vector and clean</source>
        <translation>Kernel, die „Zum Ziel sampeln“ schreibt, jeder nahe an seinem Vektor gehalten und sauber</translation>
    </message>
    <message>
        <source>Samples toward the target:</source>
        <translation>Samples zum Ziel:</translation>
    </message>
    <message>
        <source>Each sample asks for its own vector: every count of the target times a factor in [1 - S, 1 + S] (0: all ask for the target)</source>
        <translation>Jedes Sample verlangt seinen eigenen Vektor: jede Zahl des Ziels mal einem Faktor in [1 - S, 1 + S] (0: alle verlangen das Ziel)</translation>
    </message>
    <message>
        <source>Spread of their vectors:</source>
        <translation>Streuung ihrer Vektoren:</translation>
    </message>
    <message>
        <source>Sample toward target</source>
        <translation>Zum Ziel sampeln</translation>
    </message>
    <message>
        <source>Let the model write kernels toward the target&apos;s Grewe counts (a model trained with conditions), spread around it as the Parameters tab says; each is stored as a sample and drawn on the plot as it arrives</source>
        <translation>Das Modell Kernel zu den Grewe-Zahlen des Ziels schreiben lassen (ein mit Bedingungen trainiertes Modell), so um das Ziel gestreut, wie der Reiter Parameter sagt; jeder wird als Sample gespeichert und beim Eintreffen im Plot gezeichnet</translation>
    </message>
    <message>
        <source>The model is told Grewe counts: set a target in the Grewe space to sample toward it.</source>
        <translation>Dem Modell werden Grewe-Zahlen genannt: setzen Sie ein Ziel im Grewe-Raum, um dorthin zu sampeln.</translation>
    </message>
    <message>
        <source>Sampling %1 kernels toward the target...</source>
        <translation>%1 Kernel werden zum Ziel gesampelt...</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>Sampeln</translation>
    </message>
    <message>
        <source>Sample %1 (kernel #%2)</source>
        <translation>Sample %1 (Kernel #%2)</translation>
    </message>
    <message>
        <source>Sample %1 (does not compile)</source>
        <translation>Sample %1 (kompiliert nicht)</translation>
    </message>
    <message>
        <source>Sampling failed: %1</source>
        <translation>Sampeln fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Median proximity to the counts each asked for: %1%.</source>
        <translation>Median der Nähe zu den jeweils verlangten Zahlen: %1%.</translation>
    </message>
    <message>
        <source>Stop the run (every complete generation is kept) or the sampling (every sample that arrived is kept)</source>
        <translation>Den Lauf anhalten (jede vollständige Generation bleibt erhalten) oder das Sampeln (jedes eingetroffene Sample bleibt erhalten)</translation>
    </message>
    <message>
        <source>A run or sampling is going on; stop it first.</source>
        <translation>Ein Lauf oder Sampeln ist im Gang; halten Sie ihn zuerst an.</translation>
    </message>
    <message>
        <source>Stopped. Samples toward the target: %1, compiling: %2; they are stored.</source>
        <translation>Angehalten. Samples zum Ziel: %1, kompilierend: %2; sie sind gespeichert.</translation>
    </message>
    <message>
        <source>Samples toward the target: %1, compiling: %2; stored in the workspace as samples.</source>
        <translation>Samples zum Ziel: %1, kompilierend: %2; im Arbeitsbereich als Samples gespeichert.</translation>
    </message>
    <message>
        <source>Held to their vectors: %1 ended by themselves; given up on the way, %2 end at their last clean statement and %3 have no kernel to end at.</source>
        <translation>An ihre Vektoren gehalten: %1 endeten von selbst; unterwegs aufgegeben enden %2 bei ihrer letzten sauberen Anweisung und %3 haben keinen Kernel, bei dem sie enden können.</translation>
    </message>
    <message>
        <source>&quot;Sample a grid over this view&quot; (the plot&apos;s menu, on two Grewe counts): cells a side</source>
        <translation>„Ein Raster über diese Ansicht sampeln“ (Menü des Plots, auf zwei Grewe-Zählungen): Zellen je Seite</translation>
    </message>
    <message>
        <source>Grid cells a side:</source>
        <translation>Rasterzellen je Seite:</translation>
    </message>
    <message>
        <source>Kernels written toward each cell&apos;s vector, held near it and clean</source>
        <translation>Kernels, die auf den Vektor jeder Zelle hin geschrieben werden, nahe daran gehalten und sauber</translation>
    </message>
    <message>
        <source>Samples a grid cell:</source>
        <translation>Samples je Rasterzelle:</translation>
    </message>
    <message>
        <source>The model is told Grewe counts: show the Grewe space to sample a grid of them.</source>
        <translation>Das Modell bekommt Grewe-Zählungen: Zeigen Sie den Grewe-Raum, um ein Raster davon zu sampeln.</translation>
    </message>
    <message>
        <source>Sampling %1 kernels over a grid of %2 x %2 cells (%3)...</source>
        <translation>Sampelt %1 Kernels über ein Raster von %2 x %2 Zellen (%3)...</translation>
    </message>
    <message>
        <source>Sampling: %1 of %2, %3 compile.</source>
        <translation>Sampling: %1 von %2, %3 kompilieren.</translation>
    </message>
    <message>
        <source>Stopped. Samples over the grid: %1, compiling: %2; they are stored.</source>
        <translation>Angehalten. Samples über dem Raster: %1, kompilierend: %2; sie sind gespeichert.</translation>
    </message>
    <message>
        <source>Samples over the grid: %1, compiling: %2; stored in the workspace as samples.</source>
        <translation>Samples über dem Raster: %1, kompilierend: %2; im Arbeitsbereich als Samples gespeichert.</translation>
    </message>
    <message>
        <source>Grid cells with a compiling sample within 10% of the cell&apos;s vector: %1 of %2.</source>
        <translation>Rasterzellen mit einem kompilierenden Sample innerhalb von 10 % des Zellvektors: %1 von %2.</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::TargetController</name>
    <message>
        <source>Set target</source>
        <translation>Ziel festlegen</translation>
    </message>
    <message>
        <source>The target is %1 pixels from your click: it is the nearest vector a kernel can have there%2. The plot joins the click to it.</source>
        <translation>Das Ziel liegt %1 Pixel von Ihrem Klick entfernt: Es ist der nächste Vektor, den ein Kernel dort haben kann%2. Das Diagramm verbindet den Klick mit ihm.</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation> (%1)</translation>
    </message>
    <message>
        <source>a plot click at PCA (%1, %2)</source>
        <translation>Klick ins Diagramm bei PCA (%1, %2)</translation>
    </message>
    <message>
        <source>Use as target</source>
        <translation>Als Ziel verwenden</translation>
    </message>
    <message>
        <source>Select a kernel on the plot first.</source>
        <translation>Wählen Sie zuerst einen Kernel im Diagramm aus.</translation>
    </message>
    <message>
        <source>edited values</source>
        <translation>bearbeitete Werte</translation>
    </message>
    <message>
        <source>Edit target</source>
        <translation>Ziel bearbeiten</translation>
    </message>
    <message>
        <source>Clear target</source>
        <translation>Ziel entfernen</translation>
    </message>
    <message>
        <source>The plot is still loading the new space; try again in a moment.</source>
        <translation>Das Diagramm lädt noch den neuen Raum; bitte gleich noch einmal versuchen.</translation>
    </message>
    <message>
        <source>the target</source>
        <translation>dem Ziel</translation>
    </message>
    <message>
        <source>kernel #%1</source>
        <translation>Kernel #%1</translation>
    </message>
    <message>
        <source>Set a target or select a kernel first.</source>
        <translation>Legen Sie zuerst ein Ziel fest oder wählen Sie einen Kernel aus.</translation>
    </message>
    <message>
        <source>The %1 kernels nearest %2 in the full %3 space</source>
        <translation>Die %1 Kernels, die %2 im vollständigen %3-Raum am nächsten liegen</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::TargetTable</name>
    <message>
        <source>No target: click empty space on the plot, or use a kernel&apos;s features.</source>
        <translation>Kein Ziel: Klicken Sie auf eine leere Stelle im Diagramm oder verwenden Sie die Merkmale eines Kernels.</translation>
    </message>
    <message>
        <source>Dimension</source>
        <translation>Dimension</translation>
    </message>
    <message>
        <source>Target value</source>
        <translation>Zielwert</translation>
    </message>
    <message>
        <source>Nearest kernels</source>
        <translation>Nächste Kernels</translation>
    </message>
    <message>
        <source>List the corpus kernels nearest this target in the full space</source>
        <translation>Die Korpus-Kernels auflisten, die diesem Ziel im vollständigen Raum am nächsten liegen</translation>
    </message>
    <message>
        <source>Clear target</source>
        <translation>Ziel entfernen</translation>
    </message>
    <message>
        <source>Target in the %1 space, from %2.</source>
        <translation>Ziel im %1-Raum, Herkunft: %2.</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::TrainingPanel</name>
    <message>
        <source>Steps</source>
        <translation>Schritte</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>Batch</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>Schichten</translation>
    </message>
    <message>
        <source>Hidden</source>
        <translation>Hidden-Größe</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>Köpfe</translation>
    </message>
    <message>
        <source>FFN</source>
        <translation>FFN</translation>
    </message>
    <message>
        <source>The shape of a new model. A model in training keeps its shape: delete its checkpoint to start another.</source>
        <translation>Der Aufbau eines neuen Modells. Ein Modell im Training behält seinen Aufbau: Löschen Sie seinen Checkpoint, um ein neues zu beginnen.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Start training</source>
        <translation>Training starten</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausieren</translation>
    </message>
    <message>
        <source>Stops at the end of the current step and writes the checkpoint; Resume goes on from it.</source>
        <translation>Hält am Ende des aktuellen Schritts an und schreibt den Checkpoint; „Training fortsetzen“ macht dort weiter.</translation>
    </message>
    <message>
        <source>No training in progress.</source>
        <translation>Es läuft kein Training.</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Verlust</translation>
    </message>
    <message>
        <source>training loss (per step)</source>
        <translation>Trainingsverlust (je Schritt)</translation>
    </message>
    <message>
        <source>validation loss (held-out kernels, one hole)</source>
        <translation>Validierungsverlust (zurückgehaltene Kernels, eine Lücke)</translation>
    </message>
    <message>
        <source>step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>cross-entropy (nats)</source>
        <translation>Kreuzentropie (nats)</translation>
    </message>
    <message>
        <source>The recipe of the model: the command, corpus and seed that made it.</source>
        <translation>Das Rezept des Modells: Befehl, Korpus und Seed, mit denen es erstellt wurde.</translation>
    </message>
    <message>
        <source>Cannot start training</source>
        <translation>Das Training kann nicht gestartet werden</translation>
    </message>
    <message>
        <source>Training could not start.</source>
        <translation>Das Training konnte nicht gestartet werden.</translation>
    </message>
    <message>
        <source>Step %1 of %2 (%3). %4</source>
        <translation>Schritt %1 von %2 (%3). %4</translation>
    </message>
    <message>
        <source>Resume goes on from the checkpoint.</source>
        <translation>„Training fortsetzen“ macht am Checkpoint weiter.</translation>
    </message>
    <message>
        <source>Training is complete.</source>
        <translation>Das Training ist abgeschlossen.</translation>
    </message>
    <message>
        <source>No workspace is open.</source>
        <translation>Es ist kein Arbeitsbereich geöffnet.</translation>
    </message>
    <message>
        <source>This workspace has no model yet, and no default model is installed. Start training to make %1.</source>
        <translation>Dieser Arbeitsbereich hat noch kein Modell, und es ist kein Standard-Modell installiert. Starten Sie das Training, um %1 zu erstellen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Model of this workspace&lt;/b&gt;: %1</source>
        <translation>&lt;b&gt;Modell dieses Arbeitsbereichs&lt;/b&gt;: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Default model&lt;/b&gt; (this workspace has none of its own yet): %1</source>
        <translation>&lt;b&gt;Standard-Modell&lt;/b&gt; (dieser Arbeitsbereich hat noch kein eigenes): %1</translation>
    </message>
    <message>
        <source>%1; %2 parameters; step %3; sha256 %4</source>
        <translation>%1; %2 Parameter; Schritt %3; sha256 %4</translation>
    </message>
    <message>
        <source>Recipe: %1
Corpus sha256: %2
Tokenizer sha256: %3</source>
        <translation>Rezept: %1
Korpus-sha256: %2
Tokenizer-sha256: %3</translation>
    </message>
    <message>
        <source>Resume training</source>
        <translation>Training fortsetzen</translation>
    </message>
    <message>
        <source>Preparing: reading the corpus and building the tokenizer...</source>
        <translation>Vorbereitung: Korpus wird gelesen und Tokenizer erstellt...</translation>
    </message>
    <message>
        <source>Resuming from the checkpoint...</source>
        <translation>Training wird ab dem Checkpoint fortgesetzt...</translation>
    </message>
    <message>
        <source>Training a new model...</source>
        <translation>Ein neues Modell wird trainiert...</translation>
    </message>
    <message>
        <source>Pausing at the end of this step...</source>
        <translation>Wird am Ende dieses Schritts pausiert...</translation>
    </message>
    <message>
        <source>Step %1 of %2: loss %3%4. %5 tokens/s, %6 labels/s. Elapsed %7, ETA %8.</source>
        <translation>Schritt %1 von %2: Verlust %3%4. %5 tokens/s, %6 Labels/s. Verstrichen %7, Restzeit %8.</translation>
    </message>
    <message>
        <source>, validation %1</source>
        <translation>, Validierung %1</translation>
    </message>
    <message>
        <source>Training stopped at an error: %1</source>
        <translation>Training wegen eines Fehlers angehalten: %1</translation>
    </message>
    <message>
        <source>Paused at step %1 of %2; the checkpoint is written. Resume goes on from it.</source>
        <translation>Bei Schritt %1 von %2 pausiert; der Checkpoint ist geschrieben. „Training fortsetzen“ macht dort weiter.</translation>
    </message>
    <message>
        <source>Training is complete: %1 steps.</source>
        <translation>Das Training ist abgeschlossen: %1 Schritte.</translation>
    </message>
    <message>
        <source>This workspace has no training run yet.</source>
        <translation>Dieser Arbeitsbereich hat noch keinen Trainingslauf.</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>unterbrochen</translation>
    </message>
    <message>
        <source>Training paused: its progress cannot be stored (%1). Free some space and Resume.</source>
        <translation>Training angehalten: sein Fortschritt kann nicht gespeichert werden (%1). Geben Sie Speicherplatz frei und setzen Sie das Training fort.</translation>
    </message>
    <message>
        <source>Encoder</source>
        <translation>Encoder</translation>
    </message>
    <message>
        <source>Decoder</source>
        <translation>Decoder</translation>
    </message>
    <message>
        <source>Encoder: reads a hole both ways, run again for every token it writes. Decoder: reads the kernel before and after the hole, then writes the hole left to right with a key/value cache, one step a token.</source>
        <translation>Encoder: liest eine Lücke in beide Richtungen und wird für jedes geschriebene Token erneut ausgeführt. Decoder: liest den Kernel vor und nach der Lücke und schreibt die Lücke dann von links nach rechts mit einem Key/Value-Cache, ein Schritt je Token.</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Training did not start.</source>
        <translation>Das Training wurde nicht gestartet.</translation>
    </message>
</context>
<context>
    <name>steerbench::ui::WorkspaceController</name>
    <message>
        <source>Cannot open the workspace</source>
        <translation>Der Arbeitsbereich kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>%1 is a folder, not a workspace file.</source>
        <translation>%1 ist ein Ordner, keine Arbeitsbereichsdatei.</translation>
    </message>
    <message>
        <source>%1 does not exist. Use File &gt; New Workspace to create one.</source>
        <translation>%1 existiert nicht. Verwenden Sie Datei &gt; Neuer Arbeitsbereich, um einen zu erstellen.</translation>
    </message>
    <message>
        <source>%1 is read-only (the file or its folder). Steerbench stores its results in the workspace it opens. Copy the file to a folder you can write to, or change its permissions, and open it again. The file was not changed.</source>
        <translation>%1 ist schreibgeschützt (die Datei oder ihr Ordner). Steerbench speichert seine Ergebnisse im geöffneten Arbeitsbereich. Kopieren Sie die Datei in einen Ordner mit Schreibrechten oder ändern Sie ihre Berechtigungen und öffnen Sie sie erneut. Die Datei wurde nicht verändert.</translation>
    </message>
    <message>
        <source>%1 - Steerbench</source>
        <translation>%1 - Steerbench</translation>
    </message>
    <message>
        <source>First run: building the default workspace from the OpenCL code Debian ships. This takes a few minutes; you can cancel and resume later.</source>
        <translation>Erster Start: Der Standard-Arbeitsbereich wird aus dem von Debian mitgelieferten OpenCL-Code erstellt. Das dauert einige Minuten; Sie können abbrechen und später fortfahren.</translation>
    </message>
    <message>
        <source>Building the default corpus</source>
        <translation>Standard-Korpus wird erstellt</translation>
    </message>
    <message>
        <source>Stopped: %1 kernels are stored; open the default workspace again to go on.</source>
        <translation>Angehalten: %1 Kernels sind gespeichert; öffnen Sie den Standard-Arbeitsbereich erneut, um fortzufahren.</translation>
    </message>
    <message>
        <source>The default corpus is ready: %1 kernels from %2 files.</source>
        <translation>Der Standard-Korpus ist fertig: %1 Kernels aus %2 Dateien.</translation>
    </message>
    <message numerus="yes">
        <source>Workspace %1: %n kernel(s)</source>
        <translation>
            <numerusform>Arbeitsbereich %1: %n Kernel</numerusform>
            <numerusform>Arbeitsbereich %1: %n Kernels</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Measuring %n kernel file(s)</source>
        <translation>
            <numerusform>%n Kernel-Datei wird gemessen</numerusform>
            <numerusform>%n Kernel-Dateien werden gemessen</numerusform>
        </translation>
    </message>
    <message>
        <source>Added %1 of %2 files.</source>
        <translation>%1 von %2 Dateien hinzugefügt.</translation>
    </message>
    <message>
        <source>Some files were not added</source>
        <translation>Einige Dateien wurden nicht hinzugefügt</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) could not be measured; the others were added.

</source>
        <translation>
            <numerusform>%n Datei konnte nicht gemessen werden; die anderen wurden hinzugefügt.

</numerusform>
            <numerusform>%n Dateien konnten nicht gemessen werden; die anderen wurden hinzugefügt.

</numerusform>
        </translation>
    </message>
    <message>
        <source>Ingesting %1</source>
        <translation>%1 wird eingelesen</translation>
    </message>
    <message>
        <source>Ingested %1 files: %2 kernels stored, %3 duplicates, %4 rejected%5.</source>
        <translation>%1 Dateien eingelesen: %2 Kernels gespeichert, %3 Duplikate, %4 abgelehnt%5.</translation>
    </message>
    <message>
        <source> (stopped early; run it again to go on)</source>
        <translation> (vorzeitig angehalten; erneut ausführen, um fortzufahren)</translation>
    </message>
    <message>
        <source>Cannot import the reference CSV</source>
        <translation>Die Referenz-CSV kann nicht importiert werden</translation>
    </message>
    <message>
        <source>the reference benchmarks</source>
        <translation>den Referenz-Benchmarks</translation>
    </message>
    <message>
        <source>the corpus kernels</source>
        <translation>den Korpus-Kernels</translation>
    </message>
    <message>
        <source>all the workspace kernels</source>
        <translation>allen Kernels des Arbeitsbereichs</translation>
    </message>
    <message>
        <source>Cannot show the reference layer</source>
        <translation>Die Referenz-Ebene kann nicht angezeigt werden</translation>
    </message>
</context>
</TS>
