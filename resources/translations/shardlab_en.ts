<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>Edits</name>
    <message numerus="yes">
        <source>Replicate %n shard(s) onto %1</source>
        <translation>
            <numerusform>Replicate %n shard onto %1</numerusform>
            <numerusform>Replicate %n shards onto %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Move %n shard(s) to %1</source>
        <translation>
            <numerusform>Move %n shard to %1</numerusform>
            <numerusform>Move %n shards to %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Take %n shard(s) off their GPUs</source>
        <translation>
            <numerusform>Take %n shard off its GPUs</numerusform>
            <numerusform>Take %n shards off their GPUs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Split &apos;%1&apos; into %n shard(s)</source>
        <translation>
            <numerusform>Split &apos;%1&apos; into %n shard</numerusform>
            <numerusform>Split &apos;%1&apos; into %n shards</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Run %n iteration(s)</source>
        <translation>
            <numerusform>Run %n iteration</numerusform>
            <numerusform>Run %n iterations</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LinkItem</name>
    <message numerus="yes">
        <source> over %n link(s)</source>
        <translation>
            <numerusform> over %n link</numerusform>
            <numerusform> over %n links</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message numerus="yes">
        <source>… %n more rank(s)</source>
        <translation>
            <numerusform>… %n more rank</numerusform>
            <numerusform>… %n more ranks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RemoteProbe</name>
    <message numerus="yes">
        <source>%n GPU(s): %1; %2 link(s).</source>
        <translation>
            <numerusform>%n GPU: %1; %2 link(s).</numerusform>
            <numerusform>%n GPUs: %1; %2 link(s).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::EngineWorker</name>
    <message numerus="yes">
        <source>%n GPU(s) on this machine: %1</source>
        <translation>
            <numerusform>%n GPU on this machine: %1</numerusform>
            <numerusform>%n GPUs on this machine: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ExportActions</name>
    <message numerus="yes">
        <source>Wrote %n CSV file(s) into %1.</source>
        <translation>
            <numerusform>Wrote %n CSV file into %1.</numerusform>
            <numerusform>Wrote %n CSV files into %1.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ExportDialog</name>
    <message numerus="yes">
        <source>Wrote %n file(s) into %1.</source>
        <translation>
            <numerusform>Wrote %n file into %1.</numerusform>
            <numerusform>Wrote %n files into %1.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::MachineDialog</name>
    <message numerus="yes">
        <source>%n GPU(s) in %1 node(s), %2 links: %3</source>
        <translation>
            <numerusform>%n GPU in %1 node(s), %2 links: %3</numerusform>
            <numerusform>%n GPUs in %1 node(s), %2 links: %3</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::MainWindow</name>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n GPU</numerusform>
            <numerusform>%n GPUs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s) do not fit</source>
        <translation>
            <numerusform>%n GPU does not fit</numerusform>
            <numerusform>%n GPUs do not fit</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Live with %n ranks on this one &amp;GPU</source>
        <translation>
            <numerusform>Live with %n rank on this one &amp;GPU</numerusform>
            <numerusform>Live with %n ranks on this one &amp;GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Run the scenario&apos;s %n ranks as %n processes on this machine&apos;s one GPU, NCCL talking over loopback sockets: results, verification and waits are real; times are not those of %n GPUs</source>
        <translation>
            <numerusform>Run the scenario&apos;s %n rank as %n process on this machine&apos;s one GPU, NCCL talking over loopback sockets: results, verification and waits are real; times are not those of %n GPU</numerusform>
            <numerusform>Run the scenario&apos;s %n ranks as %n processes on this machine&apos;s one GPU, NCCL talking over loopback sockets: results, verification and waits are real; times are not those of %n GPUs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::MemoryBars</name>
    <message numerus="yes">
        <source>GB per GPU, by pipeline stage (%n stage(s))</source>
        <translation>
            <numerusform>GB per GPU, by pipeline stage (%n stage)</numerusform>
            <numerusform>GB per GPU, by pipeline stage (%n stages)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::RunFileOpener</name>
    <message numerus="yes">
        <source>%n files</source>
        <translation>
            <numerusform>%n file</numerusform>
            <numerusform>%n files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Measured rows only: the open scenario&apos;s machine has fewer GPUs than the sweep&apos;s %n ranks.</source>
        <translation>
            <numerusform>Measured rows only: the open scenario&apos;s machine has fewer GPUs than the sweep&apos;s %n rank.</numerusform>
            <numerusform>Measured rows only: the open scenario&apos;s machine has fewer GPUs than the sweep&apos;s %n ranks.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1, %n rank(s)</source>
        <translation>
            <numerusform>%1, %n rank</numerusform>
            <numerusform>%1, %n ranks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::RunPage</name>
    <message numerus="yes">
        <source>Running %n rank(s) on this machine&apos;s one GPU, one process each… (results and waits are real; times are not those of %n GPUs)</source>
        <translation>
            <numerusform>Running %n rank on this machine&apos;s one GPU, one process each… (results and waits are real; times are not those of %n GPU)</numerusform>
            <numerusform>Running %n ranks on this machine&apos;s one GPU, one process each… (results and waits are real; times are not those of %n GPUs)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Measured with %n rank(s) sharing one GPU</source>
        <translation>
            <numerusform>Measured with %n rank sharing one GPU</numerusform>
            <numerusform>Measured with %n ranks sharing one GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Measured with %n rank(s) taking turns on this one GPU: results, verification and waits are real, times are not those of %n GPU(s). The faint dotted lane under each rank is the simulation of the same scenario on this computer&apos;s model.</source>
        <translation>
            <numerusform>Measured with %n rank taking turns on this one GPU: results, verification and waits are real, times are not those of %n GPU. The faint dotted lane under each rank is the simulation of the same scenario on this computer&apos;s model.</numerusform>
            <numerusform>Measured with %n ranks taking turns on this one GPU: results, verification and waits are real, times are not those of %n GPUs. The faint dotted lane under each rank is the simulation of the same scenario on this computer&apos;s model.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::SharedGpu</name>
    <message numerus="yes">
        <source>This scenario has %n GPU(s); between %1 and %2 ranks can share one GPU.</source>
        <translation>
            <numerusform>This scenario has %n GPU; between %1 and %2 ranks can share one GPU.</numerusform>
            <numerusform>This scenario has %n GPUs; between %1 and %2 ranks can share one GPU.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::SideBySideView</name>
    <message numerus="yes">
        <source>%1: step %2 ms on %n GPU(s)</source>
        <translation>
            <numerusform>%1: step %2 ms on %n GPU</numerusform>
            <numerusform>%1: step %2 ms on %n GPUs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::SplitDialog</name>
    <message numerus="yes">
        <source>%n shard(s) of about %1 each.</source>
        <translation>
            <numerusform>%n shard of about %1.</numerusform>
            <numerusform>%n shards of about %1 each.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::TimelineView</name>
    <message numerus="yes">
        <source>%n spans aggregated in this pixel: zoom in to tell them apart</source>
        <translation>
            <numerusform>%n span aggregated in this pixel: zoom in to tell them apart</numerusform>
            <numerusform>%n spans aggregated in this pixel: zoom in to tell them apart</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::TopologyPanel</name>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%n GPU(s), %2 node(s), %3 links</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%n GPU, %2 node(s), %3 links</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%n GPUs, %2 node(s), %3 links</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::TopologyScene</name>
    <message numerus="yes">
        <source>Take %n shard(s) off their GPUs</source>
        <translation>
            <numerusform>Take %n shard off its GPUs</numerusform>
            <numerusform>Take %n shards off their GPUs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s) wait for %1</source>
        <translation>
            <numerusform>%n rank waits for %1</numerusform>
            <numerusform>%n ranks wait for %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::WorkloadModel</name>
    <message numerus="yes">
        <source>; %n shard(s) without owner</source>
        <translation>
            <numerusform>; %n shard without owner</numerusform>
            <numerusform>; %n shards without owner</numerusform>
        </translation>
    </message>
</context>
</TS>
