<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>DialogPrompter</name>
    <message>
        <source>ShardLab scenarios (*.shardlab.json);;JSON files (*.json);;All files (*)</source>
        <translation>ShardLab 场景 (*.shardlab.json);;JSON 文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>Save the changes to &quot;%1&quot; before closing it?</source>
        <translation>关闭前保存对“%1”的更改吗？</translation>
    </message>
    <message>
        <source>Your changes are lost if you don&apos;t save them.</source>
        <translation>如果不保存，您的更改将会丢失。</translation>
    </message>
    <message>
        <source>Save scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <source>Recover unsaved work?</source>
        <translation>恢复未保存的工作？</translation>
    </message>
    <message>
        <source>Open a scenario, a result file or a trace</source>
        <translation>打开场景、结果文件或 Trace</translation>
    </message>
    <message>
        <source>ShardLab files and recorded runs (*.json *.json.gz *.jsonl *.log *.pkl *.pickle *.sqlite *.txt);;ShardLab scenarios (*.shardlab.json);;Runs: result files (*.shardlab-result.json);;Chrome/Perfetto traces (*.json);;PyTorch profiler traces, one per rank (*.json *.json.gz);;Flight Recorder dumps (*.json *.pkl *.pickle *);;NCCL Inspector logs (*.log *.jsonl);;nccl-tests output (-J) (*.json);;Nsight Systems SQLite exports (*.sqlite);;NCCL profiler plugin traces (*.json *.txt);;All files (*)</source>
        <translation>ShardLab 文件和记录下来的运行 (*.json *.json.gz *.jsonl *.log *.pkl *.pickle *.sqlite *.txt);;ShardLab 场景 (*.shardlab.json);;运行：结果文件 (*.shardlab-result.json);;Chrome/Perfetto 跟踪文件 (*.json);;PyTorch 性能分析器跟踪文件，每个 Rank 一个 (*.json *.json.gz);;Flight Recorder 转储 (*.json *.pkl *.pickle *);;NCCL Inspector 日志 (*.log *.jsonl);;nccl-tests 输出 (-J) (*.json);;Nsight Systems SQLite 导出文件 (*.sqlite);;NCCL 性能分析插件跟踪文件 (*.json *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open a scenario, a result file, a trace, or a job&apos;s recorded files</source>
        <translation>打开场景、结果文件、Trace，或一个作业记录下来的文件</translation>
    </message>
    <message>
        <source>Open the folder of a job&apos;s recorded files</source>
        <translation>打开存放作业记录文件的文件夹</translation>
    </message>
</context>
<context>
    <name>Edits</name>
    <message>
        <source>There is no GPU %1.</source>
        <translation>不存在 GPU %1。</translation>
    </message>
    <message>
        <source>Replicate %1 onto %2</source>
        <translation>把 %1 复制到 %2</translation>
    </message>
    <message>
        <source>Move %1 from %2 to %3</source>
        <translation>把 %1 从 %2 移到 %3</translation>
    </message>
    <message>
        <source>Give %1 to %2</source>
        <translation>把 %1 交给 %2</translation>
    </message>
    <message numerus="yes">
        <source>Replicate %n shard(s) onto %1</source>
        <translation>
            <numerusform>把 %n 个 Shard 复制到 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Move %n shard(s) to %1</source>
        <translation>
            <numerusform>把 %n 个 Shard 移到 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Take %1 off %2</source>
        <translation>把 %1 从 %2 上移除</translation>
    </message>
    <message>
        <source>Take %1 off every GPU</source>
        <translation>把 %1 从所有 GPU 上移除</translation>
    </message>
    <message numerus="yes">
        <source>Take %n shard(s) off their GPUs</source>
        <translation>
            <numerusform>把 %n 个 Shard 从其 GPU 上移除</numerusform>
        </translation>
    </message>
    <message>
        <source>Place by strategy: %1</source>
        <translation>按策略放置：%1</translation>
    </message>
    <message>
        <source>There is no such item.</source>
        <translation>不存在这个条目。</translation>
    </message>
    <message numerus="yes">
        <source>Split &apos;%1&apos; into %n shard(s)</source>
        <translation>
            <numerusform>把“%1”切分为 %n 个 Shard</numerusform>
        </translation>
    </message>
    <message>
        <source>Add item &apos;%1&apos;</source>
        <translation>添加条目“%1”</translation>
    </message>
    <message>
        <source>Remove item &apos;%1&apos;</source>
        <translation>删除条目“%1”</translation>
    </message>
    <message>
        <source>&apos;%1&apos; cannot be used: item names must be unique and not empty.</source>
        <translation>不能使用“%1”：条目名称必须唯一且不能为空。</translation>
    </message>
    <message>
        <source>Rename &apos;%1&apos; to &apos;%2&apos;</source>
        <translation>把“%1”重命名为“%2”</translation>
    </message>
    <message>
        <source>Make &apos;%1&apos; %2</source>
        <translation>把“%1”设为%2</translation>
    </message>
    <message>
        <source>Resize &apos;%1&apos; to %2</source>
        <translation>把“%1”的大小改为 %2</translation>
    </message>
    <message>
        <source>Add a GPU like %1</source>
        <translation>添加一张与 %1 相同的 GPU</translation>
    </message>
    <message>
        <source>The last GPU cannot be removed: pick another machine instead.</source>
        <translation>不能删除最后一张 GPU：请改为选择另一台机器。</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>Rename %1</source>
        <translation>重命名 %1</translation>
    </message>
    <message>
        <source>Set %1 memory to %2</source>
        <translation>把 %1 的显存设为 %2</translation>
    </message>
    <message>
        <source>Set %1 speed to %2 TFLOP/s</source>
        <translation>把 %1 的算力设为 %2 TFLOP/s</translation>
    </message>
    <message>
        <source>Connect %1 and %2</source>
        <translation>连接 %1 和 %2</translation>
    </message>
    <message>
        <source>There is no such link.</source>
        <translation>不存在这条链路。</translation>
    </message>
    <message>
        <source>Remove the link %1 - %2</source>
        <translation>删除链路 %1 - %2</translation>
    </message>
    <message>
        <source>Set link bandwidth to %1</source>
        <translation>把链路带宽设为 %1</translation>
    </message>
    <message>
        <source>Set link count to %1</source>
        <translation>把链路数设为 %1</translation>
    </message>
    <message>
        <source>Use the machine %1</source>
        <translation>使用机器 %1</translation>
    </message>
    <message>
        <source>Add step &apos;%1&apos;</source>
        <translation>添加步骤“%1”</translation>
    </message>
    <message>
        <source>There is no such step.</source>
        <translation>不存在这个步骤。</translation>
    </message>
    <message>
        <source>Remove step %1</source>
        <translation>删除步骤 %1</translation>
    </message>
    <message>
        <source>Move step %1 to position %2</source>
        <translation>把步骤 %1 移到第 %2 位</translation>
    </message>
    <message>
        <source>Edit step %1 (%2)</source>
        <translation>编辑步骤 %1（%2）</translation>
    </message>
    <message numerus="yes">
        <source>Run %n iteration(s)</source>
        <translation>
            <numerusform>运行 %n 次迭代</numerusform>
        </translation>
    </message>
    <message>
        <source>Only a plan&apos;s GPUs move as TP groups or pipeline stages (File &gt; New from a transformer plan).</source>
        <translation>只有方案生成的场景才能按 TP 组或流水线阶段移动 GPU（文件 &gt; 从 Transformer 方案新建）。</translation>
    </message>
    <message>
        <source>Swap the pipeline stage of %1 with that of %2</source>
        <translation>交换 %1 与 %2 所在的流水线阶段</translation>
    </message>
    <message>
        <source>Swap the TP group of %1 with that of %2</source>
        <translation>交换 %1 与 %2 所在的 TP 组</translation>
    </message>
</context>
<context>
    <name>EngineTerms</name>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>All-Reduce</source>
        <translation>All-Reduce</translation>
    </message>
    <message>
        <source>Reduce</source>
        <translation>Reduce</translation>
    </message>
    <message>
        <source>Broadcast</source>
        <translation>Broadcast</translation>
    </message>
    <message>
        <source>All-Gather</source>
        <translation>All-Gather</translation>
    </message>
    <message>
        <source>All-Gather (unequal sizes)</source>
        <translation>All-Gather（大小不等）</translation>
    </message>
    <message>
        <source>Reduce-Scatter</source>
        <translation>Reduce-Scatter</translation>
    </message>
    <message>
        <source>Reduce-Scatter + All-Gather</source>
        <translation>Reduce-Scatter + All-Gather</translation>
    </message>
    <message>
        <source>Send/Recv</source>
        <translation>Send/Recv</translation>
    </message>
    <message>
        <source>the sum on one rank</source>
        <translation>一个 Rank 上的总和</translation>
    </message>
    <message>
        <source>the sum on every rank</source>
        <translation>每个 Rank 上的总和</translation>
    </message>
    <message>
        <source>each rank&apos;s slice of the sum</source>
        <translation>每个 Rank 各自那一片总和</translation>
    </message>
    <message>
        <source>the concatenation of every rank&apos;s piece on every rank</source>
        <translation>每个 Rank 上都有所有 Rank 片段的拼接</translation>
    </message>
    <message>
        <source>a copy of one rank&apos;s data on every rank</source>
        <translation>每个 Rank 上都有某一个 Rank 数据的副本</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>hang</source>
        <translation>挂起</translation>
    </message>
    <message>
        <source>NVLink</source>
        <translation>NVLink</translation>
    </message>
    <message>
        <source>PCIe</source>
        <translation>PCIe</translation>
    </message>
    <message>
        <source>the network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>cross-socket</source>
        <translation>跨插槽链路</translation>
    </message>
    <message>
        <source>network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>the CPU-socket interconnect</source>
        <translation>CPU 插槽间互连</translation>
    </message>
</context>
<context>
    <name>Glossary</name>
    <message>
        <source>X: the GPU itself.</source>
        <translation>X：GPU 自身。</translation>
    </message>
    <message>
        <source>NV#: the two GPUs talk over # bonded NVLink links (NV18 = 18 links), directly or through an NVSwitch. The fastest path between GPUs: hundreds of GB/s, without touching PCIe or the CPU.</source>
        <translation>NV#：两张 GPU 通过 # 条捆绑的 NVLink 链路通信（NV18 = 18 条），直连或经过 NVSwitch。这是 GPU 之间最快的路径：每秒数百 GB，不经过 PCIe，也不经过 CPU。</translation>
    </message>
    <message>
        <source>PIX: the path crosses at most one PCIe switch. Both GPUs hang off the same switch, so peer-to-peer copies stay below the CPU; bandwidth is one PCIe link (about 16 GB/s for Gen3 x16).</source>
        <translation>PIX：路径最多经过一个 PCIe Switch。两张 GPU 挂在同一个 Switch 下，点对点复制不必上行到 CPU；带宽为一条 PCIe 链路（Gen3 x16 约 16 GB/s）。</translation>
    </message>
    <message>
        <source>PXB: the path crosses several PCIe switches but not the CPU&apos;s host bridge.</source>
        <translation>PXB：路径经过多个 PCIe Switch，但不经过 CPU 的主机桥。</translation>
    </message>
    <message>
        <source>PHB: the path goes up through the CPU&apos;s PCIe host bridge. Usually slower than PIX: the switch uplinks to the CPU are shared by every GPU below them.</source>
        <translation>PHB：路径上行经过 CPU 的 PCIe 主机桥。通常比 PIX 慢：Switch 到 CPU 的上行链路由其下所有 GPU 共享。</translation>
    </message>
    <message>
        <source>NODE: the path crosses host bridges within one NUMA node (one CPU socket).</source>
        <translation>NODE：路径在一个 NUMA 节点（一个 CPU 插槽）内经过多个主机桥。</translation>
    </message>
    <message>
        <source>SYS: the path crosses the link between CPU sockets (QPI/UPI). Often the slowest path inside a machine: adding a GPU behind the other socket can make a collective slower.</source>
        <translation>SYS：路径经过 CPU 插槽之间的链路（QPI/UPI）。这往往是机器内部最慢的路径：在另一个插槽下加一张 GPU，可能反而让 Collective 变慢。</translation>
    </message>
    <message>
        <source>NET: the GPUs are in different machines; traffic leaves through a network card (InfiniBand or Ethernet). Tens of GB/s at best: ten times less than NVLink.</source>
        <translation>NET：两张 GPU 位于不同的机器；流量经网卡（InfiniBand 或以太网）离开。最多每秒几十 GB：比 NVLink 低一个数量级。</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>NVLink: NVIDIA&apos;s GPU-to-GPU link. NV18 means 18 links bonded together; each NVLink4 link carries about 25 GB/s per direction, so NV18 is about 450 GB/s.</source>
        <translation>NVLink：NVIDIA 的 GPU 间互连。NV18 表示 18 条链路捆绑在一起；每条 NVLink4 链路每个方向约 25 GB/s，因此 NV18 约为 450 GB/s。</translation>
    </message>
    <message>
        <source>PCIe: the bus that joins GPUs, NICs, PCIe switches and the CPU. Gen3 x16 carries about 16 GB/s per direction, Gen5 x16 about 63 GB/s.</source>
        <translation>PCIe：连接 GPU、网卡、PCIe Switch 与 CPU 的总线。Gen3 x16 每个方向约 16 GB/s，Gen5 x16 约 63 GB/s。</translation>
    </message>
    <message>
        <source>Cross-socket link (QPI/UPI, nvidia-smi&apos;s SYS): joins the two CPUs of a server. GPU traffic that crosses it is slow and shares it with everything else.</source>
        <translation>跨插槽链路（QPI/UPI，即 nvidia-smi 中的 SYS）：连接服务器的两颗 CPU。经过它的 GPU 流量很慢，还要与其他所有流量共享它。</translation>
    </message>
    <message>
        <source>Network link between machines: a NIC to a network switch, e.g. 400 Gb/s InfiniBand = 50 GB/s per direction. Collectives that span nodes are limited by it.</source>
        <translation>机器之间的网络链路：从网卡到网络交换机，例如 400 Gb/s InfiniBand = 每个方向 50 GB/s。跨节点的 Collective 受它限制。</translation>
    </message>
    <message>
        <source>NVSwitch: a switch chip that joins every GPU of the machine with full NVLink bandwidth, so every pair of GPUs shows as NV18. Each GPU&apos;s 450 GB/s is shared by its simultaneous transfers.</source>
        <translation>NVSwitch：一种交换芯片，以完整的 NVLink 带宽连接机器中的每张 GPU，因此任意两张 GPU 之间都显示为 NV18。每张 GPU 的 450 GB/s 由它同时进行的各个传输共享。</translation>
    </message>
    <message>
        <source>PCIe switch: fans one uplink to the CPU out to several devices. GPUs under the same switch are PIX to each other and can copy without going through the CPU.</source>
        <translation>PCIe Switch：把一条通往 CPU 的上行链路扇出到多个设备。同一 Switch 下的 GPU 彼此为 PIX，复制时无需经过 CPU。</translation>
    </message>
    <message>
        <source>CPU socket (PCIe host bridge). GPUs under different sockets talk across the socket link (SYS).</source>
        <translation>CPU 插槽（PCIe 主机桥）。不同插槽下的 GPU 通过插槽间链路（SYS）通信。</translation>
    </message>
    <message>
        <source>NIC: network card. Traffic to GPUs of other machines leaves through it.</source>
        <translation>NIC：网卡。发往其他机器上 GPU 的流量经它离开。</translation>
    </message>
    <message>
        <source>Network switch (InfiniBand or Ethernet fabric) joining the machines&apos; NICs.</source>
        <translation>网络交换机（InfiniBand 或以太网交换网络），连接各台机器的网卡。</translation>
    </message>
    <message>
        <source>Replicate: every GPU holds a full copy of everything. Simple, but each GPU needs the whole job&apos;s memory.</source>
        <translation>复制：每张 GPU 都持有全部内容的完整副本。简单，但每张 GPU 都需要整个任务的显存。</translation>
    </message>
    <message>
        <source>Data parallel: the model (parameters, gradients, optimizer state) is copied on every GPU and the batch is split. Gradients are summed across GPUs with an all-reduce every step.</source>
        <translation>数据并行：模型（参数、梯度、优化器状态）在每张 GPU 上各有一份副本，Batch 被切分。每一步都用 All-Reduce（全归约）在 GPU 之间对梯度求和。</translation>
    </message>
    <message>
        <source>ZeRO-1: data parallel, but each GPU keeps only its slice of the optimizer state.</source>
        <translation>ZeRO-1：数据并行，但每张 GPU 只保留自己那一片优化器状态。</translation>
    </message>
    <message>
        <source>ZeRO-2: optimizer state and gradients are sliced across GPUs (gradients are reduce-scattered); parameters stay copied.</source>
        <translation>ZeRO-2：优化器状态和梯度都切分到各 GPU 上（梯度用 Reduce-Scatter 归约分散）；参数仍是复制的。</translation>
    </message>
    <message>
        <source>ZeRO-3 / FSDP: parameters, gradients and optimizer state are all sliced; each layer&apos;s parameters are all-gathered just before use. Memory per GPU shrinks with the number of GPUs.</source>
        <translation>ZeRO-3 / FSDP：参数、梯度和优化器状态全部切分；每层的参数在使用前才用 All-Gather 收集。每张 GPU 的显存随 GPU 数量增加而减少。</translation>
    </message>
    <message>
        <source>Tensor parallel: every weight matrix is split by width across the GPUs, which all see the same batch; partial results are combined with all-reduce inside every layer. Needs fast links (NVLink).</source>
        <translation>张量并行：每个权重矩阵按宽度切分到各 GPU 上，所有 GPU 看到同一个 Batch；每一层内部都用 All-Reduce 合并部分结果。需要高速链路（NVLink）。</translation>
    </message>
    <message>
        <source>Pipeline parallel: the model is split by depth into stages, one per GPU; activations go from stage to stage with send/recv. The input batch enters at the first stage.</source>
        <translation>流水线并行：模型按深度切成若干阶段，每张 GPU 一段；激活值用 Send/Recv 从一个阶段传到下一个阶段。输入 Batch 从第一个阶段进入。</translation>
    </message>
    <message>
        <source>Compute: each GPU works on the share of the item it owns, at its own speed.</source>
        <translation>计算：每张 GPU 以自己的速度处理它所拥有的那部分条目。</translation>
    </message>
    <message>
        <source>All-reduce: every GPU ends with the sum of all GPUs&apos; buffers. Used to sum gradients in data parallel training.</source>
        <translation>All-Reduce（全归约）：每张 GPU 最终都得到所有 GPU 缓冲区之和。数据并行训练中用它对梯度求和。</translation>
    </message>
    <message>
        <source>Reduce: the sum of all GPUs&apos; buffers arrives on one root GPU only.</source>
        <translation>Reduce（归约）：所有 GPU 缓冲区之和只到达一个 Root GPU。</translation>
    </message>
    <message>
        <source>Broadcast: one root GPU&apos;s buffer is copied to every GPU.</source>
        <translation>Broadcast（广播）：把一个 Root GPU 的缓冲区复制到每张 GPU。</translation>
    </message>
    <message>
        <source>All-gather: every GPU ends with the concatenation of all GPUs&apos; pieces (equal sizes).</source>
        <translation>All-Gather（全收集）：每张 GPU 最终都得到所有 GPU 片段的拼接（片段大小相同）。</translation>
    </message>
    <message>
        <source>All-gather-v: the concatenation of pieces of unequal sizes (NCCL builds it from broadcasts).</source>
        <translation>All-Gather-v：大小不等的片段的拼接（NCCL 用多个 Broadcast 实现）。</translation>
    </message>
    <message>
        <source>Reduce-scatter: the sum is computed, and each GPU keeps only its own slice of it.</source>
        <translation>Reduce-Scatter（归约分散）：计算总和，每张 GPU 只保留其中属于自己的那一片。</translation>
    </message>
    <message>
        <source>Reduce-scatter then all-gather: an all-reduce in two halves, the way ring all-reduce works inside; ZeRO places work between the two.</source>
        <translation>先 Reduce-Scatter 再 All-Gather：分成两半的 All-Reduce，环形 All-Reduce 内部就是这样做的；ZeRO 在两半之间安排计算。</translation>
    </message>
    <message>
        <source>Send/recv: one GPU sends its buffer to one other GPU (pipeline stages).</source>
        <translation>Send/Recv：一张 GPU 把缓冲区发给另一张 GPU（流水线各阶段之间）。</translation>
    </message>
    <message>
        <source>Only one GPU (the root) uses the summed result, e.g. to write a checkpoint or a metric.</source>
        <translation>只有一张 GPU（Root）使用求和结果，例如用来写检查点或指标。</translation>
    </message>
    <message>
        <source>Every GPU needs the full sum, e.g. gradients before each GPU&apos;s optimizer step.</source>
        <translation>每张 GPU 都需要完整的总和，例如每张 GPU 执行优化器更新前的梯度。</translation>
    </message>
    <message>
        <source>Each GPU only updates its own slice, so it only needs that slice of the sum (ZeRO).</source>
        <translation>每张 GPU 只更新自己的那一片，所以只需要总和中的那一片（ZeRO）。</translation>
    </message>
    <message>
        <source>Every GPU needs all the pieces side by side, not added up, e.g. sharded parameters before a layer.</source>
        <translation>每张 GPU 都需要把所有片段并排拼起来，而不是相加，例如某一层之前的切分参数。</translation>
    </message>
    <message>
        <source>Every GPU needs a copy of what one GPU has, e.g. initial weights from rank 0.</source>
        <translation>每张 GPU 都需要一张 GPU 所拥有数据的副本，例如来自 Rank 0 的初始权重。</translation>
    </message>
    <message>
        <source>Shard: a contiguous piece of a workload item. A shard with one owner is split (only that GPU holds it); a shard with several owners is replicated (each of them holds a full copy).</source>
        <translation>Shard（分片）：工作负载条目中连续的一段。只有一个所有者的 Shard 是切分的（只有那张 GPU 持有它）；有多个所有者的 Shard 是复制的（每个所有者都持有完整副本）。</translation>
    </message>
    <message>
        <source>Rank: the number of a process in the job. ShardLab runs one rank per GPU: GPU 3 is rank 3.</source>
        <translation>Rank：进程在任务中的编号。ShardLab 每张 GPU 运行一个 Rank：GPU 3 就是 Rank 3。</translation>
    </message>
    <message>
        <source>Imbalance: how much more the busiest GPU owns than the mean, (max - mean) / mean. The others wait for the busiest one at every synchronisation point.</source>
        <translation>不均衡度：最忙的 GPU 比平均值多拥有多少，即 (最大值 - 平均值) / 平均值。在每个同步点，其他 GPU 都要等最忙的那一张。</translation>
    </message>
    <message>
        <source>Buckets: split the step into this many equal pieces run back to back (gradient buckets, micro-batches).</source>
        <translation>分桶：把这一步切成这么多份大小相等、依次执行的片段（梯度分桶、微批次）。</translation>
    </message>
    <message>
        <source>Overlap: run the collective on its own stream while compute goes on. A bucketed all-reduce after a bucketed backward pass starts each bucket as soon as it is ready, as PyTorch DDP does.</source>
        <translation>重叠：在单独的 Stream 上执行 Collective，同时计算继续进行。分桶的反向传播之后接分桶的 All-Reduce 时，每个桶一就绪就开始通信，PyTorch DDP 就是这样做的。</translation>
    </message>
    <message>
        <source>TFLOP/s: the GPU&apos;s sustained compute rate, in 10^12 floating-point operations per second.</source>
        <translation>TFLOP/s：GPU 的持续计算速率，单位为每秒 10^12 次浮点运算。</translation>
    </message>
    <message>
        <source>Memory gauge: what this GPU owns (coloured by item), then the largest buffer one of its collectives adds (hatched grey), against what it holds. Red means the peak does not fit: the excess is shown in GB. Four 16 GB cards are not one 64 GB memory.</source>
        <translation>显存条：这张 GPU 拥有的字节（按数据项着色），再加上它的某个集合通信带来的最大临时缓冲（灰色斜纹），对比它的显存容量。红色表示峰值放不下，超出部分以 GB 显示。四张 16 GB 的卡不是一块 64 GB 的显存。</translation>
    </message>
</context>
<context>
    <name>Labels</name>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>shard</source>
        <translation>Shard</translation>
    </message>
    <message>
        <source>&apos;%1&apos; #%2</source>
        <translation>“%1” #%2</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Data / batch</source>
        <translation>数据 / Batch</translation>
    </message>
    <message>
        <source>NVLink</source>
        <translation>NVLink</translation>
    </message>
    <message>
        <source>PCIe</source>
        <translation>PCIe</translation>
    </message>
    <message>
        <source>Cross-socket (SYS)</source>
        <translation>跨插槽 (SYS)</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>NVSwitch</source>
        <translation>NVSwitch</translation>
    </message>
    <message>
        <source>PCIe switch</source>
        <translation>PCIe Switch</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>NIC</source>
        <translation>网卡</translation>
    </message>
    <message>
        <source>Network switch</source>
        <translation>网络交换机</translation>
    </message>
    <message>
        <source>Replicate everything</source>
        <translation>全部复制</translation>
    </message>
    <message>
        <source>Data parallel</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <source>ZeRO-1 (optimizer state sharded)</source>
        <translation>ZeRO-1（切分优化器状态）</translation>
    </message>
    <message>
        <source>ZeRO-2 (+ gradients sharded)</source>
        <translation>ZeRO-2（再切分梯度）</translation>
    </message>
    <message>
        <source>ZeRO-3 / FSDP (everything sharded)</source>
        <translation>ZeRO-3 / FSDP（全部切分）</translation>
    </message>
    <message>
        <source>Tensor parallel</source>
        <translation>张量并行</translation>
    </message>
    <message>
        <source>Pipeline parallel</source>
        <translation>流水线并行</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
</context>
<context>
    <name>LinkItem</name>
    <message>
        <source>NV%1 %2</source>
        <translation>NV%1 %2</translation>
    </message>
    <message>
        <source>PCIe %1</source>
        <translation>PCIe %1</translation>
    </message>
    <message>
        <source>SYS %1</source>
        <translation>SYS %1</translation>
    </message>
    <message>
        <source>IB %1</source>
        <translation>IB %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 link&lt;/b&gt; %2 - %3&lt;br&gt;%4 per direction%5, %6 per traversal&lt;br&gt;&lt;br&gt;%7</source>
        <translation>&lt;b&gt;%1 链路&lt;/b&gt; %2 - %3&lt;br&gt;每个方向 %4%5，每次经过 %6&lt;br&gt;&lt;br&gt;%7</translation>
    </message>
    <message numerus="yes">
        <source> over %n link(s)</source>
        <translation>
            <numerusform>，共 %n 条链路</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>rank %1: %2</source>
        <translation>Rank %1: %2</translation>
    </message>
    <message>
        <source>All-Reduce</source>
        <translation>All-Reduce</translation>
    </message>
    <message>
        <source>RS + AG</source>
        <translation>RS + AG</translation>
    </message>
    <message>
        <source>RS only</source>
        <translation>仅 RS</translation>
    </message>
    <message numerus="yes">
        <source>… %n more rank(s)</source>
        <translation>
            <numerusform>…… 还有 %n 个 Rank</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RemoteFailure</name>
    <message>
        <source> (it said: %1)</source>
        <translation>（它说：%1）</translation>
    </message>
    <message>
        <source>The ssh program &quot;%1&quot; could not be started. Install the OpenSSH client (Debian: openssh-client).</source>
        <translation>无法启动 ssh 程序“%1”。请安装 OpenSSH 客户端（Debian：openssh-client）。</translation>
    </message>
    <message>
        <source>%1 answered with something this ShardLab cannot read: %2</source>
        <translation>%1 返回的内容本 ShardLab 无法读取：%2</translation>
    </message>
    <message>
        <source>The run on %1 failed: %2</source>
        <translation>在 %1 上的运行失败：%2</translation>
    </message>
    <message>
        <source>The connection to %1 was cut after %2 of %3 iterations. What arrived is shown, marked incomplete.</source>
        <translation>与 %1 的连接在完成 %2 / %3 次迭代后被切断。已收到的部分照常显示，并标为不完整。</translation>
    </message>
    <message>
        <source>The connection to %1 dropped after %2 of %3 iterations%4. What arrived is shown, marked incomplete; the run there stops when it next writes.</source>
        <translation>与 %1 的连接在完成 %2 / %3 次迭代后断开%4。已收到的部分照常显示，并标为不完整；远端的运行在下一次写出时停止。</translation>
    </message>
    <message>
        <source>%1 refused the login%2. Check that your key is in ~/.ssh/authorized_keys there and loaded (ssh-add), or name it in ~/.ssh/config; ShardLab does not ask for passwords.</source>
        <translation>%1 拒绝了登录%2。请确认您的密钥已写入对方的 ~/.ssh/authorized_keys 并已加载（ssh-add），或在 ~/.ssh/config 中指明；ShardLab 不会询问密码。</translation>
    </message>
    <message>
        <source>The host key of %1 is not known or has changed%2. Connect once with ssh in a terminal to check and accept it.</source>
        <translation>%1 的主机密钥未知或已变更%2。请先在终端里用 ssh 连接一次，核对并接受它。</translation>
    </message>
    <message>
        <source>%1 is not a known host name%2. Check the name, or add an alias to ~/.ssh/config.</source>
        <translation>%1 不是已知的主机名%2。请检查名称，或在 ~/.ssh/config 中添加别名。</translation>
    </message>
    <message>
        <source>%1 cannot be reached%2. Check that the machine is on and its SSH server is running, and the port.</source>
        <translation>无法连接到 %1%2。请确认该机器已开机、SSH 服务正在运行，并检查端口。</translation>
    </message>
    <message>
        <source>ssh could not connect to %1 (exit status 255)%2.</source>
        <translation>ssh 无法连接到 %1（退出状态 255）%2。</translation>
    </message>
    <message>
        <source>The command was not found on %1%2. Install the ShardLab package there, or give the full path of shardlab in the remote command.</source>
        <translation>在 %1 上找不到该命令%2。请在那里安装 ShardLab 软件包，或在远端命令中写出 shardlab 的完整路径。</translation>
    </message>
    <message>
        <source>The command on %1 cannot be run%2 (not executable?).</source>
        <translation>%1 上的命令无法运行%2（没有执行权限？）。</translation>
    </message>
    <message>
        <source>The ShardLab on %1 does not know this option: it is older than this one. Install the same ShardLab version there%2.</source>
        <translation>%1 上的 ShardLab 不认识这个选项：它比本机的版本旧。请在那里安装相同版本的 ShardLab%2。</translation>
    </message>
    <message>
        <source>The connection to %1 was cut before the run began.</source>
        <translation>与 %1 的连接在运行开始之前就被切断了。</translation>
    </message>
    <message>
        <source>The command on %1 ended (exit status %2) without sending a run%3.</source>
        <translation>%1 上的命令已结束（退出状态 %2），但没有发回任何运行%3。</translation>
    </message>
    <message>
        <source>The profiler&apos;s output could not be read: %1</source>
        <translation>无法读取分析器的输出：%1</translation>
    </message>
    <message>
        <source>Profiling failed: %1</source>
        <translation>分析失败：%1</translation>
    </message>
    <message>
        <source>The profiler stopped after %1 collectives, before the run&apos;s end%2. What arrived is shown, marked incomplete.</source>
        <translation>分析器在 %1 个集合通信之后、运行结束之前停止了%2。已收到的部分照常显示，并标为不完整。</translation>
    </message>
    <message>
        <source>ShardLab&apos;s command line (shardlab) was not found%1. Give its full path in the dialog&apos;s &quot;ShardLab command&quot;.</source>
        <translation>找不到 ShardLab 命令行程序（shardlab）%1。请在对话框的“ShardLab 命令”中填写它的完整路径。</translation>
    </message>
    <message>
        <source>The profiler ended (exit status %1) without sending a run%2.</source>
        <translation>分析器已结束（退出状态 %1），但没有发送任何运行%2。</translation>
    </message>
</context>
<context>
    <name>RemoteProbe</name>
    <message>
        <source>ShardLab %1 on %2 (here: %3).</source>
        <translation>%2 上的 ShardLab 版本为 %1（本机：%3）。</translation>
    </message>
    <message>
        <source>Its run stream is format %1, this ShardLab reads format %2: install the same ShardLab version on both machines.</source>
        <translation>它的运行流格式为 %1，本 ShardLab 读取格式 %2：请在两台机器上安装相同版本的 ShardLab。</translation>
    </message>
    <message>
        <source>The versions differ but the stream format is the same: runs can be read.</source>
        <translation>版本不同，但运行流格式相同：可以读取运行。</translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s): %1; %2 link(s).</source>
        <translation>
            <numerusform>%n 个 GPU：%1；%2 条链路。</numerusform>
        </translation>
    </message>
    <message>
        <source>No GPU can be used there for live runs: %1</source>
        <translation>那里没有可用于实测运行的 GPU：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>RemoteTarget</name>
    <message>
        <source>Enter a host: an alias from ~/.ssh/config, or user@host.</source>
        <translation>请输入主机：~/.ssh/config 中的别名，或 user@host。</translation>
    </message>
</context>
<context>
    <name>SwitchItem</name>
    <message>
        <source>CPU %1</source>
        <translation>CPU %1</translation>
    </message>
    <message>
        <source>PCIe switch</source>
        <translation>PCIe Switch</translation>
    </message>
    <message>
        <source>NIC</source>
        <translation>网卡</translation>
    </message>
    <message>
        <source>NVSwitch</source>
        <translation>NVSwitch</translation>
    </message>
    <message>
        <source>Network switch (InfiniBand)</source>
        <translation>网络交换机 (InfiniBand)</translation>
    </message>
    <message>
        <source>%1  ·  %2</source>
        <translation>%1  ·  %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2)&lt;br&gt;%3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（%2）&lt;br&gt;%3</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::AccuracyModel</name>
    <message>
        <source>collective</source>
        <translation>Collective</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>measured (µs)</source>
        <translation>实测 (µs)</translation>
    </message>
    <message>
        <source>before (µs)</source>
        <translation>校准前 (µs)</translation>
    </message>
    <message>
        <source>error %</source>
        <translation>误差 %</translation>
    </message>
    <message>
        <source>calibrated (µs)</source>
        <translation>校准后 (µs)</translation>
    </message>
    <message>
        <source>(predicted - measured) / measured</source>
        <translation>(预测值 - 实测值) / 实测值</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ActivityLegend</name>
    <message>
        <source>computing</source>
        <translation>计算中</translation>
    </message>
    <message>
        <source>communicating</source>
        <translation>通信中</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>paging</source>
        <translation>换页中</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::AnalysisPage</name>
    <message>
        <source>Message sizes</source>
        <translation>消息大小</translation>
    </message>
    <message>
        <source>Time and bandwidth of one collective against message size, as nccl-tests measures</source>
        <translation>单个 Collective 的时间和带宽随消息大小的变化，与 nccl-tests 的测法相同</translation>
    </message>
    <message>
        <source>Scaling</source>
        <translation>扩展</translation>
    </message>
    <message>
        <source>Speed-up and efficiency from 1 to N GPUs, and where the time goes</source>
        <translation>从 1 张到 N 张 GPU 的加速比和效率，以及时间都花在哪里</translation>
    </message>
    <message>
        <source>All-reduce vs reduce-scatter</source>
        <translation>All-Reduce 与 Reduce-Scatter 对比</translation>
    </message>
    <message>
        <source>What each rank holds, memory, traffic and time; and what a wrong choice does</source>
        <translation>每个 Rank 持有什么、显存、流量与时间；以及选错会怎样</translation>
    </message>
    <message>
        <source>Calibration</source>
        <translation>校准</translation>
    </message>
    <message>
        <source>Fit the cost model to this machine&apos;s measurements</source>
        <translation>让成本模型拟合本机的实测数据</translation>
    </message>
    <message>
        <source>Diagnosis</source>
        <translation>诊断</translation>
    </message>
    <message>
        <source>The course&apos;s diagnostic handbook applied to the run</source>
        <translation>把课程的诊断手册应用到这次运行上</translation>
    </message>
    <message>
        <source>%1; the built-in profile is used instead.</source>
        <translation>%1；改用内置配置。</translation>
    </message>
    <message>
        <source>Diagnosing…</source>
        <translation>正在诊断…</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::CalibrationPanel</name>
    <message>
        <source>Calibration runs a short sweep of all-reduce, all-gather, reduce-scatter, broadcast and reduce on this machine&apos;s GPUs and measures their compute rate, then fits the cost model&apos;s latency and bandwidth per link class to it and saves a named profile that simulations can use.</source>
        <translation>校准会在本机 GPU 上快速扫描 All-Reduce、All-Gather、Reduce-Scatter、Broadcast 和 Reduce，并测量 GPU 的计算速率，然后按链路类别拟合成本模型的延迟和带宽，保存为一个有名称的配置，供模拟使用。</translation>
    </message>
    <message>
        <source>Not available here: %1.</source>
        <translation>此处不可用：%1。</translation>
    </message>
    <message>
        <source>You can still fit sweeps measured on another machine (files written by shardlab bench --json) against the scenario&apos;s topology.</source>
        <translation>您仍然可以用场景的拓扑去拟合在其他机器上测得的扫描结果（由 shardlab bench --json 写出的文件）。</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Simulate with it: choose this profile, or shardlab sim --profile NAME</source>
        <translation>用它来模拟：选择这个配置，或运行 shardlab sim --profile NAME</translation>
    </message>
    <message>
        <source>Calibrate on this machine&apos;s GPUs</source>
        <translation>在本机 GPU 上校准</translation>
    </message>
    <message>
        <source>Fit measured sweep files…</source>
        <translation>拟合实测扫描文件…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>message size</source>
        <translation>消息大小</translation>
    </message>
    <message>
        <source>error (%)</source>
        <translation>误差 (%)</translation>
    </message>
    <message>
        <source>before calibration</source>
        <translation>校准前</translation>
    </message>
    <message>
        <source>calibrated</source>
        <translation>校准后</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Profile name</source>
        <translation>配置名称</translation>
    </message>
    <message>
        <source>Measuring…</source>
        <translation>正在测量…</translation>
    </message>
    <message>
        <source>Fitting…</source>
        <translation>正在拟合…</translation>
    </message>
    <message>
        <source>Measured sweeps</source>
        <translation>实测扫描</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Median error %1 % before, %2 % calibrated; worst %3 % before, %4 % calibrated (%5 measurements).</source>
        <translation>中位误差：校准前 %1 %，校准后 %2 %；最大误差：校准前 %3 %，校准后 %4 %（共 %5 次测量）。</translation>
    </message>
    <message>
        <source>Saved as profile &apos;%1&apos; in %2.</source>
        <translation>已保存为配置“%1”，位于 %2。</translation>
    </message>
    <message>
        <source>looking for GPUs on this machine…</source>
        <translation>正在查找本机的 GPU…</translation>
    </message>
    <message>
        <source>Calibrate needs this machine&apos;s GPUs: %1</source>
        <translation>校准需要本机的 GPU：%1</translation>
    </message>
    <message>
        <source>Measure this machine&apos;s GPUs: %1</source>
        <translation>测量本机的 GPU：%1</translation>
    </message>
    <message>
        <source>The model&apos;s error per message size appears here after a calibration.</source>
        <translation>校准之后，这里显示模型在各消息大小上的误差。</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::CapacityModel</name>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>%1%2 %</source>
        <translation>%1%2 %</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>%1 too much</source>
        <translation>超出 %1</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Owns</source>
        <translation>拥有</translation>
    </message>
    <message>
        <source>Holds</source>
        <translation>容量</translation>
    </message>
    <message>
        <source>Used</source>
        <translation>已用</translation>
    </message>
    <message>
        <source>vs. mean</source>
        <translation>与平均值比</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::CollectiveHelper</name>
    <message>
        <source>Which collective?</source>
        <translation>选哪个 Collective？</translation>
    </message>
    <message>
        <source>&lt;b&gt;What does the next step need on each GPU?&lt;/b&gt;&lt;br&gt;Choose the collective from what its consumer needs, not from what the data looks like.</source>
        <translation>&lt;b&gt;下一步在每张 GPU 上需要什么？&lt;/b&gt;&lt;br&gt;根据结果的使用者需要什么来选择 Collective，而不是根据数据长什么样。</translation>
    </message>
    <message>
        <source>The sum of everyone&apos;s data, on one GPU only</source>
        <translation>所有人数据的总和，只在一张 GPU 上</translation>
    </message>
    <message>
        <source>The sum of everyone&apos;s data, on every GPU</source>
        <translation>所有人数据的总和，在每张 GPU 上</translation>
    </message>
    <message>
        <source>Only its own slice of the sum, on every GPU</source>
        <translation>总和中属于自己的那一片，在每张 GPU 上</translation>
    </message>
    <message>
        <source>Everyone&apos;s pieces side by side (the concatenation), on every GPU</source>
        <translation>所有人的片段并排拼接，在每张 GPU 上</translation>
    </message>
    <message>
        <source>A copy of one GPU&apos;s data, on every GPU</source>
        <translation>一张 GPU 数据的副本，在每张 GPU 上</translation>
    </message>
    <message>
        <source>The pieces have different sizes</source>
        <translation>各片段大小不同</translation>
    </message>
    <message>
        <source>NCCL&apos;s all-gather needs equal pieces; unequal ones need all-gather-v.</source>
        <translation>NCCL 的 All-Gather 要求片段大小相同；大小不等时需要 All-Gather-v。</translation>
    </message>
    <message>
        <source>Use it</source>
        <translation>就用它</translation>
    </message>
    <message>
        <source>→ %1</source>
        <translation>→ %1</translation>
    </message>
    <message>
        <source>Use %1</source>
        <translation>使用 %1</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ComparisonModel</name>
    <message>
        <source>whole step</source>
        <translation>整步</translation>
    </message>
    <message>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>阶段</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>Simulated</source>
        <translation>模拟</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>误差</translation>
    </message>
    <message>
        <source>Mean time of one instance of the phase, in ms</source>
        <translation>该阶段一次执行的平均时间，单位 ms</translation>
    </message>
    <message>
        <source>(simulated - measured) / measured: positive when the model predicts the phase slower than it ran</source>
        <translation>(模拟值 - 实测值) / 实测值：模型预测该阶段比实际运行慢时为正</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ComparisonView</name>
    <message>
        <source>The buffer each rank contributes: 1 GB = 10^9 bytes, 1 GiB = 2^30</source>
        <translation>每个 Rank 贡献的缓冲区：1 GB = 10^9 字节，1 GiB = 2^30 字节</translation>
    </message>
    <message>
        <source>Measure on this machine</source>
        <translation>在本机上测量</translation>
    </message>
    <message>
        <source>Live mode is not built into this ShardLab: %1</source>
        <translation>此 ShardLab 未内置实机模式：%1</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Buffer</source>
        <translation>缓冲区</translation>
    </message>
    <message>
        <source>All-Reduce</source>
        <translation>All-Reduce</translation>
    </message>
    <message>
        <source>Reduce-Scatter + All-Gather</source>
        <translation>Reduce-Scatter + All-Gather</translation>
    </message>
    <message>
        <source>Reduce-Scatter only</source>
        <translation>仅 Reduce-Scatter</translation>
    </message>
    <message>
        <source>each rank holds afterwards</source>
        <translation>之后每个 Rank 持有</translation>
    </message>
    <message>
        <source>peak memory per rank</source>
        <translation>每个 Rank 的峰值显存</translation>
    </message>
    <message>
        <source>each rank sends</source>
        <translation>每个 Rank 发送</translation>
    </message>
    <message>
        <source>time (simulated)</source>
        <translation>时间（模拟）</translation>
    </message>
    <message>
        <source>time (measured)</source>
        <translation>时间（实测）</translation>
    </message>
    <message>
        <source>Bytes of the result each rank keeps</source>
        <translation>每个 Rank 保留的结果字节数</translation>
    </message>
    <message>
        <source>Buffers alive at once, out of place: all-reduce needs input and output of the full size; reduce-scatter needs the input and one slice, and its input is freed before the all-gather</source>
        <translation>同时存活的缓冲区（非原地操作）：All-Reduce 需要完整大小的输入和输出；Reduce-Scatter 需要输入和一片输出，且其输入在 All-Gather 之前释放</translation>
    </message>
    <message>
        <source>Ring traffic per rank: 2(n-1)/n of the buffer for all-reduce, (n-1)/n for each half</source>
        <translation>每个 Rank 的环形流量：All-Reduce 为缓冲区的 2(n-1)/n，每一半各为 (n-1)/n</translation>
    </message>
    <message>
        <source>From the cost model on this machine</source>
        <translation>来自本机的成本模型</translation>
    </message>
    <message>
        <source>Measured with NCCL on this machine&apos;s GPUs</source>
        <translation>在本机 GPU 上用 NCCL 实测</translation>
    </message>
    <message>
        <source>example values afterwards</source>
        <translation>之后的示例值</translation>
    </message>
    <message>
        <source>Rank r starts with 10(r+1), 10(r+1)+1, …: sums and concatenations are easy to tell apart</source>
        <translation>Rank r 的初始值为 10(r+1)、10(r+1)+1、…：一眼就能分清求和与拼接</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>并排对比</translation>
    </message>
    <message>
        <source>example inputs</source>
        <translation>示例输入</translation>
    </message>
    <message>
        <source>peak memory per rank (GB)</source>
        <translation>每 Rank 峰值显存 (GB)</translation>
    </message>
    <message>
        <source>time (ms)</source>
        <translation>时间 (ms)</translation>
    </message>
    <message>
        <source>The next step needs</source>
        <translation>下一步需要</translation>
    </message>
    <message>
        <source>The program calls</source>
        <translation>程序调用的是</translation>
    </message>
    <message>
        <source>Choosing the collective from what the next step needs</source>
        <translation>根据下一步需要什么来选择 Collective</translation>
    </message>
    <message>
        <source>Choose a size above zero on a machine with two or more GPUs.</source>
        <translation>请在有两张或更多 GPU 的机器上选择一个大于零的大小。</translation>
    </message>
    <message>
        <source>Measuring the three on this machine&apos;s GPUs…</source>
        <translation>正在本机 GPU 上测量这三种方式…</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>simulated</source>
        <translation>模拟</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::DiagnosisPanel</name>
    <message>
        <source>rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>per step (ms)</source>
        <translation>每步 (ms)</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>No finding: the run scales, nobody is waited for, and every collective completes.</source>
        <translation>没有发现问题：运行能够扩展，没有人被等待，每个 Collective 都完成了。</translation>
    </message>
    <message>
        <source>What the handbook says to check first</source>
        <translation>手册建议首先检查什么</translation>
    </message>
    <message>
        <source>Evidence it asks for:</source>
        <translation>它要求的证据：</translation>
    </message>
    <message>
        <source>%1 (below).</source>
        <translation>%1（见下文）。</translation>
    </message>
    <message>
        <source>Communication bandwidth</source>
        <translation>通信带宽</translation>
    </message>
    <message>
        <source>%1, %2 on %3 GPUs: %4 ms, bus bandwidth %5 GB/s, %6%7</source>
        <translation>%1，%2，%3 张 GPU：%4 ms，总线带宽 %5 GB/s，%6%7</translation>
    </message>
    <message>
        <source>latency-bound</source>
        <translation>受延迟限制</translation>
    </message>
    <message>
        <source>bandwidth-bound</source>
        <translation>受带宽限制</translation>
    </message>
    <message>
        <source>, limited by %1</source>
        <translation>，受限于 %1</translation>
    </message>
    <message>
        <source>Strong-scaling curve</source>
        <translation>强扩展曲线</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>step (ms)</source>
        <translation>单步 (ms)</translation>
    </message>
    <message>
        <source>speed-up</source>
        <translation>加速比</translation>
    </message>
    <message>
        <source>efficiency</source>
        <translation>效率</translation>
    </message>
    <message>
        <source>%1 (this one)</source>
        <translation>%1（当前）</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::Document</name>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::DocumentController</name>
    <message>
        <source>Untitled scenario</source>
        <translation>未命名场景</translation>
    </message>
    <message>
        <source>New scenario</source>
        <translation>新建场景</translation>
    </message>
    <message>
        <source>Cannot open scenario</source>
        <translation>无法打开场景</translation>
    </message>
    <message>
        <source>&quot;%1&quot; could not be opened. Your current document is unchanged.</source>
        <translation>无法打开“%1”。当前文档保持不变。</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>Cannot open example</source>
        <translation>无法打开示例</translation>
    </message>
    <message>
        <source>The example &quot;%1&quot; could not be opened. Your current document is unchanged.</source>
        <translation>无法打开示例“%1”。当前文档保持不变。</translation>
    </message>
    <message>
        <source>Opened the example %1; save it to keep your changes.</source>
        <translation>已打开示例 %1；要保留修改请另存。</translation>
    </message>
    <message>
        <source>Cannot save scenario</source>
        <translation>无法保存场景</translation>
    </message>
    <message>
        <source>&quot;%1&quot; could not be written. Your document is still open and unchanged.</source>
        <translation>无法写入“%1”。文档仍然打开，没有变化。</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>an untitled scenario (&quot;%1&quot;)</source>
        <translation>一个未命名场景（“%1”）</translation>
    </message>
    <message>
        <source>ShardLab did not close normally. Recover the unsaved changes to %1, autosaved at %2?</source>
        <translation>ShardLab 上次没有正常关闭。要恢复对 %1 的未保存更改吗？（自动保存于 %2）</translation>
    </message>
    <message>
        <source>Recovered unsaved changes; save them to keep them.</source>
        <translation>已恢复未保存的更改；请保存以保留它们。</translation>
    </message>
    <message>
        <source>Cannot recover</source>
        <translation>无法恢复</translation>
    </message>
    <message>
        <source>The autosaved scenario could not be read.</source>
        <translation>无法读取自动保存的场景。</translation>
    </message>
    <message>
        <source>Opened %1 as a new scenario; save it to keep it.</source>
        <translation>已把 %1 作为新场景打开；请保存以保留它。</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::EditorPage</name>
    <message>
        <source>NVLink</source>
        <translation>NVLink</translation>
    </message>
    <message>
        <source>PCIe</source>
        <translation>PCIe</translation>
    </message>
    <message>
        <source>CPU socket link (SYS)</source>
        <translation>CPU 插槽间链路 (SYS)</translation>
    </message>
    <message>
        <source>network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>thicker = faster</source>
        <translation>越粗 = 越快</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>over 90 %</source>
        <translation>超过 90 %</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <source>Diagram</source>
        <translation>拓扑图</translation>
    </message>
    <message>
        <source>Right-click a GPU, a link or a shard tile for what you can do with it. Drag shard tiles between GPUs; Ctrl-drag replicates. Wheel: zoom; middle button or Space: pan.</source>
        <translation>右键单击 GPU、链路或 Shard 块，查看可以对它做什么。在 GPU 之间拖动 Shard 块；按住 Ctrl 拖动则是复制。滚轮：缩放；中键或空格：平移。</translation>
    </message>
    <message>
        <source>Workload &amp;&amp; shards</source>
        <translation>工作负载与 Shard</translation>
    </message>
    <message>
        <source>Step program</source>
        <translation>步骤程序</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>机器</translation>
    </message>
    <message>
        <source>Capacity per GPU</source>
        <translation>每张 GPU 的容量</translation>
    </message>
    <message>
        <source>Balance and warnings</source>
        <translation>均衡与警告</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Fit the whole machine in the window (Ctrl+0)</source>
        <translation>让整台机器适应窗口大小 (Ctrl+0)</translation>
    </message>
    <message>
        <source>Zoom in</source>
        <translation>放大</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <source>Pick a machine...</source>
        <translation>选择机器...</translation>
    </message>
    <message>
        <source>Add GPU</source>
        <translation>添加 GPU</translation>
    </message>
    <message>
        <source>Connect...</source>
        <translation>连接...</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::EngineWorker</name>
    <message>
        <source>Live runs are not built into this ShardLab: %1</source>
        <translation>此 ShardLab 未内置实机运行：%1</translation>
    </message>
    <message>
        <source>No GPU can be used for live runs: %1</source>
        <translation>没有可用于实机运行的 GPU：%1</translation>
    </message>
    <message>
        <source>No GPU is visible to this process, so only simulation is possible.</source>
        <translation>此进程看不到任何 GPU，因此只能进行模拟。</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s) on this machine: %1</source>
        <translation>
            <numerusform>本机有 %n 张 GPU：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>The run stopped on an internal error: %1</source>
        <translation>运行因内部错误而停止：%1</translation>
    </message>
    <message>
        <source>The run stopped on an unknown internal error.</source>
        <translation>运行因未知的内部错误而停止。</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ExportActions</name>
    <message>
        <source>Topology</source>
        <translation>拓扑</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>plot %1</source>
        <translation>图 %1</translation>
    </message>
    <message>
        <source>%1: the folder cannot be created</source>
        <translation>%1：无法创建该文件夹</translation>
    </message>
    <message>
        <source>there is no run yet: run the scenario first (Run &gt; Run)</source>
        <translation>还没有运行结果：请先运行场景（运行 &gt; 运行）</translation>
    </message>
    <message>
        <source>Export figure</source>
        <translation>导出图</translation>
    </message>
    <message>
        <source>This page shows no figure: go to the editor&apos;s diagram, the run&apos;s timeline or a plot.</source>
        <translation>此页没有可导出的图：请转到编辑器的拓扑图、运行页的时间线或某个图表。</translation>
    </message>
    <message>
        <source>Copy figure</source>
        <translation>复制图</translation>
    </message>
    <message>
        <source>This page shows no figure to copy.</source>
        <translation>此页没有可复制的图。</translation>
    </message>
    <message>
        <source>Copied %1 to the clipboard (image and SVG)</source>
        <translation>已把 %1 复制到剪贴板（图像和 SVG）</translation>
    </message>
    <message>
        <source>Write every table as CSV into</source>
        <translation>把每个表格以 CSV 写入</translation>
    </message>
    <message>
        <source>Export tables</source>
        <translation>导出表格</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n CSV file(s) into %1.</source>
        <translation>
            <numerusform>已在 %1 中写入 %n 个 CSV 文件。</numerusform>
        </translation>
    </message>
    <message>
        <source>Export trace</source>
        <translation>导出 Trace</translation>
    </message>
    <message>
        <source>There is no run yet: run the scenario first (Run &gt; Run).</source>
        <translation>还没有运行结果：请先运行场景（运行 &gt; 运行）。</translation>
    </message>
    <message>
        <source>Write the run as a Chrome/Perfetto trace</source>
        <translation>把本次运行写成 Chrome/Perfetto Trace</translation>
    </message>
    <message>
        <source>Chrome traces (*.json)</source>
        <translation>Chrome Trace (*.json)</translation>
    </message>
    <message>
        <source>Wrote %1: open it in ui.perfetto.dev or chrome://tracing, or back in ShardLab</source>
        <translation>已写入 %1：可在 ui.perfetto.dev 或 chrome://tracing 中打开，也可在 ShardLab 中重新打开</translation>
    </message>
    <message>
        <source>Exported %1 to %2</source>
        <translation>已将 %1 导出到 %2</translation>
    </message>
    <message>
        <source>Exported every figure into %1</source>
        <translation>已将所有图导出到 %1</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ExportDialog</name>
    <message>
        <source>Export figure</source>
        <translation>导出图</translation>
    </message>
    <message>
        <source>PNG image</source>
        <translation>PNG 图像</translation>
    </message>
    <message>
        <source>SVG drawing (vector)</source>
        <translation>SVG 图形（矢量）</translation>
    </message>
    <message>
        <source>PDF document (vector)</source>
        <translation>PDF 文档（矢量）</translation>
    </message>
    <message>
        <source>PNG for slides and chat; SVG and PDF stay sharp at any size when printed</source>
        <translation>PNG 适合幻灯片和聊天；SVG 和 PDF 打印时在任何尺寸下都保持清晰</translation>
    </message>
    <message>
        <source>1x (as on screen)</source>
        <translation>1x（与屏幕相同）</translation>
    </message>
    <message>
        <source>2x (presentation)</source>
        <translation>2x（演示用）</translation>
    </message>
    <message>
        <source>Custom DPI</source>
        <translation>自定义 DPI</translation>
    </message>
    <message>
        <source>Pixels per screen pixel of the PNG; DPI (dots per inch) sets it for print</source>
        <translation>PNG 中每个屏幕像素对应的像素数；打印时用 DPI（每英寸点数）来设定</translation>
    </message>
    <message>
        <source> DPI</source>
        <translation> DPI</translation>
    </message>
    <message>
        <source>Larger fonts for print</source>
        <translation>打印用大字体</translation>
    </message>
    <message>
        <source>Enlarges axis labels, tick labels and the legend of plots in the exported file only</source>
        <translation>只在导出的文件中放大图表的坐标轴标签、刻度标签和图例</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Resolution:</source>
        <translation>分辨率：</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>Choose a file to write.</source>
        <translation>请选择要写入的文件。</translation>
    </message>
    <message>
        <source>Figures (*.png *.svg *.pdf)</source>
        <translation>图 (*.png *.svg *.pdf)</translation>
    </message>
    <message>
        <source>Export all figures into</source>
        <translation>把所有图导出到</translation>
    </message>
    <message>
        <source>Export all figures</source>
        <translation>导出所有图</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n file(s) into %1.</source>
        <translation>
            <numerusform>已向 %1 写入 %n 个文件。</numerusform>
        </translation>
    </message>
    <message>
        <source>none (e.g. &quot;ZeRO-3 on 4 GPUs: one more all-gather per layer&quot;)</source>
        <translation>无（例如“4 张 GPU 上的 ZeRO-3：每层多一次 All-Gather”）</translation>
    </message>
    <message>
        <source>A title drawn above the figure, as on a slide</source>
        <translation>画在图上方的标题，就像幻灯片上那样</translation>
    </message>
    <message>
        <source>As on screen</source>
        <translation>与屏幕上相同</translation>
    </message>
    <message>
        <source>16:9 (widescreen slide)</source>
        <translation>16:9（宽屏幻灯片）</translation>
    </message>
    <message>
        <source>4:3 (classic slide)</source>
        <translation>4:3（传统幻灯片）</translation>
    </message>
    <message>
        <source>1:1 (square)</source>
        <translation>1:1（正方形）</translation>
    </message>
    <message>
        <source>The figure&apos;s width to height: plots are laid out again to fill it, other views are centred on white</source>
        <translation>图的宽高比：图表会重新排版以填满它，其他视图在白底上居中</translation>
    </message>
    <message>
        <source>Text as outlines (looks the same on every machine)</source>
        <translation>文字转为轮廓（在每台机器上看起来都一样）</translation>
    </message>
    <message>
        <source>SVG: every text drawn as the shape of its letters, so that a machine without this font shows it unchanged; clear it to keep the text editable and searchable</source>
        <translation>SVG：每段文字都画成字形的轮廓，没有这种字体的机器也能原样显示；取消勾选则保留可编辑、可搜索的文字</translation>
    </message>
    <message>
        <source>Caption:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <source>Shape:</source>
        <translation>形状：</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::FeedbackPanel</name>
    <message>
        <source>Balance: nothing to compare yet.</source>
        <translation>均衡：还没有可比较的内容。</translation>
    </message>
    <message>
        <source>Balanced: every GPU owns %1, the mean.</source>
        <translation>已均衡：每张 GPU 都拥有 %1，即平均值。</translation>
    </message>
    <message>
        <source>Imbalance %1 %: %2 owns the most, %3; the mean is %4.</source>
        <translation>不均衡度 %1 %：%2 拥有最多，为 %3；平均值为 %4。</translation>
    </message>
    <message>
        <source>Every GPU fits what it owns, and the ownership is balanced.</source>
        <translation>每张 GPU 都放得下它所拥有的数据，而且所有权是均衡的。</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::FigureExporter</name>
    <message>
        <source>%1: the figure could not be drawn</source>
        <translation>%1：无法绘制图</translation>
    </message>
    <message>
        <source>Exported from ShardLab</source>
        <translation>由 ShardLab 导出</translation>
    </message>
    <message>
        <source>there is no view to export</source>
        <translation>没有可导出的视图</translation>
    </message>
    <message>
        <source>the view has no size yet (it was never shown)</source>
        <translation>视图还没有尺寸（它从未显示过）</translation>
    </message>
    <message>
        <source>a scale of %1 is out of range (expected 0.25 to 16, or 24 to 1536 DPI)</source>
        <translation>缩放比例 %1 超出范围（应为 0.25 到 16，或 24 到 1536 DPI）</translation>
    </message>
    <message>
        <source>unknown format</source>
        <translation>未知格式</translation>
    </message>
    <message>
        <source>there is no view to copy</source>
        <translation>没有可复制的视图</translation>
    </message>
    <message>
        <source>%1: the folder cannot be created</source>
        <translation>%1：无法创建文件夹</translation>
    </message>
    <message>
        <source>the view &quot;%1&quot; no longer exists</source>
        <translation>视图“%1”已不存在</translation>
    </message>
    <message>
        <source>an aspect ratio of %1 is out of range (expected 0.1 to 10, or 0 for the view&apos;s own)</source>
        <translation>宽高比 %1 超出范围（应为 0.1 到 10，或 0 表示沿用视图自身的比例）</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::FindingsModel</name>
    <message>
        <source>Problem: </source>
        <translation>问题：</translation>
    </message>
    <message>
        <source>Warning: </source>
        <translation>警告：</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::GpuCardItem</name>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 too much</source>
        <translation>超出 %1</translation>
    </message>
    <message>
        <source>%1 % used</source>
        <translation>已用 %1 %</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>computing</source>
        <translation>计算中</translation>
    </message>
    <message>
        <source>communicating</source>
        <translation>通信中</translation>
    </message>
    <message>
        <source>waits for %1</source>
        <translation>等待 %1</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>%1 TFLOP/s</source>
        <translation>%1 TFLOP/s</translation>
    </message>
    <message>
        <source>+%1</source>
        <translation>+%1</translation>
    </message>
    <message>
        <source>drop shards here</source>
        <translation>把 Shard 拖到这里</translation>
    </message>
    <message>
        <source>peak %1: %2 too much</source>
        <translation>峰值 %1：超出 %2</translation>
    </message>
    <message>
        <source>peak %1, %2 % used</source>
        <translation>峰值 %1，已用 %2 %</translation>
    </message>
    <message>
        <source>paging</source>
        <translation>换页中</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::GpuModel</name>
    <message>
        <source>%1 / socket %2</source>
        <translation>%1 / 插槽 %2</translation>
    </message>
    <message>
        <source>What this GPU holds. Double-click to change (e.g. 16 GB, 80 GB).</source>
        <translation>这张 GPU 的显存容量。双击修改（例如 16 GB、80 GB）。</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>TFLOP/s</source>
        <translation>TFLOP/s</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>expected a number of TFLOP/s</source>
        <translation>需要一个以 TFLOP/s 为单位的数字</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::HangGridModel</name>
    <message>
        <source>rank %1
first mismatch</source>
        <translation>Rank %1
第一个不一致</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>The first rank whose call differs from what the rest of its group called, or that never called</source>
        <translation>在其组内第一个调用与其他 Rank 不同、或从未调用的 Rank</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>stuck</source>
        <translation>卡住</translation>
    </message>
    <message>
        <source>differs</source>
        <translation>不一致</translation>
    </message>
    <message>
        <source>never called</source>
        <translation>从未调用</translation>
    </message>
    <message>
        <source>Rank %1 completed its collective #%2</source>
        <translation>Rank %1 完成了它的第 #%2 个集合通信</translation>
    </message>
    <message>
        <source>Rank %1 called its collective #%2 and waits for the others: %3</source>
        <translation>Rank %1 调用了它的第 #%2 个集合通信，正在等待其他 Rank：%3</translation>
    </message>
    <message>
        <source>Rank %1 called its collective #%2 differently from its group: %3</source>
        <translation>Rank %1 调用第 #%2 个集合通信的方式与其组不同：%3</translation>
    </message>
    <message>
        <source>Rank %1 never called collective #%2: %3</source>
        <translation>Rank %1 从未调用第 #%2 个集合通信：%3</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Last completed</source>
        <translation>最后完成</translation>
    </message>
    <message>
        <source>What it is doing</source>
        <translation>正在做什么</translation>
    </message>
    <message>
        <source>The sequence number of the rank&apos;s last completed collective (each rank counts its collectives from #0)</source>
        <translation>该 Rank 最后完成的集合通信的序号（每个 Rank 从 #0 开始为自己的集合通信计数）</translation>
    </message>
    <message>
        <source>Each rank&apos;s collective #%1, counted from #0: NCCL matches the calls on a communicator in this order</source>
        <translation>每个 Rank 的第 #%1 个集合通信（从 #0 起计）：NCCL 按这个顺序匹配同一通信器上的调用</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::HangSandbox</name>
    <message>
        <source>Make one rank call a collective wrongly, on purpose, and watch the watchdog catch the hang. Your scenario is not changed: the run uses a copy with the mistake.</source>
        <translation>故意让一个 Rank 错误地调用一次集合通信，观察看门狗如何发现这次挂起。你的场景不会被修改：运行使用的是带有这个错误的副本。</translation>
    </message>
    <message>
        <source>Call a different collective</source>
        <translation>调用另一种集合通信</translation>
    </message>
    <message>
        <source>Call it with a different size</source>
        <translation>以不同的大小调用</translation>
    </message>
    <message>
        <source>Skip the call</source>
        <translation>跳过这次调用</translation>
    </message>
    <message>
        <source>What the rank does wrong. NCCL matches the calls on a communicator by their order, so any of these leaves the other ranks waiting</source>
        <translation>该 Rank 做错了什么。NCCL 按顺序匹配同一通信器上的调用，因此任何一种错误都会让其他 Rank 一直等待</translation>
    </message>
    <message>
        <source>The rank that makes the mistake</source>
        <translation>犯错的 Rank</translation>
    </message>
    <message>
        <source>The step of the program whose call goes wrong</source>
        <translation>调用出错的那一步程序</translation>
    </message>
    <message>
        <source>The collective the rank calls instead</source>
        <translation>该 Rank 改为调用的集合通信</translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>The size the rank passes instead (1 MB = 10^6 bytes)</source>
        <translation>该 Rank 改为传入的大小（1 MB = 10^6 字节）</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>The watchdog aborts a collective that makes no progress for this long. Live runs measure it on the clock; simulations on the simulated clock. It applies to every run</source>
        <translation>看门狗会中止在这么长时间内没有进展的集合通信。实测运行按真实时钟计时，模拟按模拟时钟计时。它对每次运行都生效</translation>
    </message>
    <message>
        <source>Run with this mistake</source>
        <translation>带着这个错误运行</translation>
    </message>
    <message>
        <source>Run a copy of the scenario with the mistake, in the mode chosen above (Simulate or Live)</source>
        <translation>以上面选择的模式（模拟或实测）运行带有这个错误的场景副本</translation>
    </message>
    <message>
        <source>Mistake:</source>
        <translation>错误：</translation>
    </message>
    <message>
        <source>Rank:</source>
        <translation>Rank：</translation>
    </message>
    <message>
        <source>Collective:</source>
        <translation>集合通信：</translation>
    </message>
    <message>
        <source>Iteration:</source>
        <translation>迭代：</translation>
    </message>
    <message>
        <source>Calls instead:</source>
        <translation>改为调用：</translation>
    </message>
    <message>
        <source>Size instead:</source>
        <translation>改为大小：</translation>
    </message>
    <message>
        <source>Watchdog deadline:</source>
        <translation>看门狗时限：</translation>
    </message>
    <message>
        <source>Inject a mistake</source>
        <translation>注入一个错误</translation>
    </message>
    <message>
        <source>The flight recorder: each rank&apos;s collectives by sequence number, its last completed one, and the first rank whose call differs</source>
        <translation>飞行记录器：每个 Rank 按序号排列的集合通信、它最后完成的那一个，以及第一个调用不一致的 Rank</translation>
    </message>
    <message>
        <source>No hang yet: inject a mistake and run.</source>
        <translation>还没有挂起：注入一个错误并运行。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Flight recorder&lt;/b&gt;</source>
        <translation>&lt;b&gt;飞行记录器&lt;/b&gt;</translation>
    </message>
    <message>
        <source>step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <source>No scenario is open.</source>
        <translation>没有打开的场景。</translation>
    </message>
    <message>
        <source>The step program has no collective to get wrong: add one in the editor.</source>
        <translation>步骤程序中没有可以出错的集合通信：请在编辑器中添加一个。</translation>
    </message>
    <message>
        <source>The step program has no collective to get wrong.</source>
        <translation>步骤程序中没有可以出错的集合通信。</translation>
    </message>
    <message>
        <source>This mistake cannot run: %1</source>
        <translation>这个错误无法运行：%1</translation>
    </message>
    <message>
        <source>Running with the mistake…</source>
        <translation>正在带着错误运行…</translation>
    </message>
    <message>
        <source>No hang: every rank made the same calls in the same order.</source>
        <translation>没有挂起：每个 Rank 以相同顺序做了相同的调用。</translation>
    </message>
    <message>
        <source>No hang: the mistake never happened (the rank is not in that collective&apos;s group, or the iteration is not run), so every collective completed.</source>
        <translation>没有挂起：这个错误没有发生（该 Rank 不在那个集合通信的组内，或那次迭代没有运行），所以每个集合通信都完成了。</translation>
    </message>
    <message>
        <source>The run hung and the watchdog aborted it.</source>
        <translation>运行挂起了，看门狗中止了它。</translation>
    </message>
    <message>
        <source>Rank %1 is the first whose call differs from its group&apos;s: %2.</source>
        <translation>Rank %1 是第一个调用与其组不一致的 Rank：%2。</translation>
    </message>
    <message>
        <source>The others completed collective #%1 and are stuck in #%2, waiting for a matching call that never comes.</source>
        <translation>其他 Rank 完成了第 #%1 个集合通信，卡在第 #%2 个，等待一个永远不会到来的匹配调用。</translation>
    </message>
    <message>
        <source>NCCL matches calls by their order on the communicator and raises no error: only the watchdog ends the wait. The fix is in the program (every rank calls the same collectives in the same order, with the same sizes), not in the deadline.</source>
        <translation>NCCL 按通信器上调用的顺序进行匹配，并且不会报错：只有看门狗能结束等待。要修的是程序（每个 Rank 以相同顺序、相同大小调用相同的集合通信），而不是时限。</translation>
    </message>
    <message>
        <source>Every rank made the same call, so a rank or a link stopped making progress.</source>
        <translation>每个 Rank 做的调用都相同，所以是某个 Rank 或某条链路停止了进展。</translation>
    </message>
    <message>
        <source>The iteration in which it goes wrong (counted from 1, as on the timeline); the ones before complete</source>
        <translation>出错的迭代（从 1 开始计数，与时间线一致）；之前的迭代会正常完成</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::LessonBrowser</name>
    <message>
        <source>English</source>
        <translation>English</translation>
    </message>
    <message>
        <source>Simplified Chinese</source>
        <translation>简体中文</translation>
    </message>
    <message>
        <source>Language of the lesson texts</source>
        <translation>课程文本的语言</translation>
    </message>
    <message>
        <source>Open the lesson&apos;s scenario</source>
        <translation>打开本课的场景</translation>
    </message>
    <message>
        <source>Open the comparison scenario</source>
        <translation>打开对比场景</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>Show me</source>
        <translation>带我去看</translation>
    </message>
    <message>
        <source>Go to the view this step talks about</source>
        <translation>转到这一步所讲的视图</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Previous question</source>
        <translation>上一题</translation>
    </message>
    <message>
        <source>Next question</source>
        <translation>下一题</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>Choose a lesson on the left.</source>
        <translation>请在左侧选择一课。</translation>
    </message>
    <message>
        <source>The lesson&apos;s answers cannot be checked: %1</source>
        <translation>无法检查本课的答案：%1</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>Question %1 of %2</source>
        <translation>第 %1 题，共 %2 题</translation>
    </message>
    <message>
        <source>&lt;b&gt;Welcome to ShardLab.&lt;/b&gt; These ten lessons follow the course &lt;i&gt;Multi-GPU scaling&lt;/i&gt;: each opens a scenario, points at what to look at and checks your answers.&lt;br&gt;&lt;b&gt;Where to begin:&lt;/b&gt; lesson 1 below. Press &lt;i&gt;Open the lesson&apos;s scenario&lt;/i&gt;, then read the steps one at a time; &lt;i&gt;Show me&lt;/i&gt; goes to the page each step talks about. Ctrl+R runs the scenario; Space plays the run back.&lt;br&gt;View &amp;gt; Lessons (Ctrl+L) hides or shows this panel; Help &amp;gt; Where to begin brings this note back.</source>
        <translation>&lt;b&gt;欢迎使用 ShardLab。&lt;/b&gt;这十节课跟随课程&lt;i&gt;《多 GPU 扩展》&lt;/i&gt;：每节课打开一个场景，指出该看哪里，并检查你的答案。&lt;br&gt;&lt;b&gt;从哪里开始：&lt;/b&gt;下面的第 1 课。按&lt;i&gt;“打开本课的场景”&lt;/i&gt;，然后一步一步读下去；&lt;i&gt;“带我去看”&lt;/i&gt;会跳到每一步所说的页面。Ctrl+R 运行场景；空格键回放运行过程。&lt;br&gt;视图 &amp;gt; 课程（Ctrl+L）可隐藏或显示此面板；帮助 &amp;gt; 从哪里开始 可再次显示这段说明。</translation>
    </message>
    <message>
        <source>Begin with lesson 1</source>
        <translation>从第 1 课开始</translation>
    </message>
    <message>
        <source>Close this note</source>
        <translation>关闭此说明</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>并排对比</translation>
    </message>
    <message>
        <source>Simulate the lesson&apos;s scenario and its comparison and show both timelines one above the other, with what differs named</source>
        <translation>模拟本课的场景和它的对比场景，把两条时间线上下排开，并指出不同之处</translation>
    </message>
    <message>
        <source>%1, step %2 of %3: %4</source>
        <translation>%1，第 %2 步（共 %3 步）：%4</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::LessonListModel</name>
    <message>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::LinkDialog</name>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>NVLink links bundled together: NV18 is 18 links.</source>
        <translation>捆绑在一起的 NVLink 链路数：NV18 即 18 条。</translation>
    </message>
    <message>
        <source> GB/s</source>
        <translation> GB/s</translation>
    </message>
    <message>
        <source>Bandwidth per direction of the whole link (all bundled NVLinks together).</source>
        <translation>整条链路每个方向的带宽（所有捆绑的 NVLink 加在一起）。</translation>
    </message>
    <message>
        <source> µs</source>
        <translation> µs</translation>
    </message>
    <message>
        <source>From</source>
        <translation>从</translation>
    </message>
    <message>
        <source>To</source>
        <translation>到</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Links bundled</source>
        <translation>捆绑链路数</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>A link needs two different ends.</source>
        <translation>链路的两端必须不同。</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::LinkModel</name>
    <message>
        <source>From</source>
        <translation>从</translation>
    </message>
    <message>
        <source>To</source>
        <translation>到</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Links</source>
        <translation>链路</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>expected a bandwidth in GB/s</source>
        <translation>需要一个以 GB/s 为单位的带宽</translation>
    </message>
    <message>
        <source>expected a number of links</source>
        <translation>需要一个链路数</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::MachineDialog</name>
    <message>
        <source>Pick a machine</source>
        <translation>选择机器</translation>
    </message>
    <message>
        <source>Built-in machines (figures from datasheets; each preset cites its source):</source>
        <translation>内置机器（数据来自产品规格书；每个预设都注明了来源）：</translation>
    </message>
    <message>
        <source>%1
    %2</source>
        <translation>%1
    %2</translation>
    </message>
    <message>
        <source>Fewer GPUs than the preset: its first N. More: a cluster of copies of its first node, joined by a 400 Gb/s InfiniBand network.</source>
        <translation>GPU 数少于预设：取其前 N 张。多于预设：复制其第一个节点组成集群，节点间用 400 Gb/s InfiniBand 网络连接。</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s) in %1 node(s), %2 links: %3</source>
        <translation>
            <numerusform>%n 张 GPU，分布在 %1 个节点中，%2 条链路：%3</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::MainWindow</name>
    <message>
        <source>Editor</source>
        <translation>编辑器</translation>
    </message>
    <message>
        <source>Not changed: %1</source>
        <translation>未更改：%1</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>Open &amp;example</source>
        <translation>打开示例(&amp;E)</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Add a &amp;GPU</source>
        <translation>添加 GPU(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Place by strategy</source>
        <translation>按策略放置(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Take selected shards off their GPUs</source>
        <translation>把选中的 Shard 从其 GPU 上移除(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About ShardLab</source>
        <translation>关于 ShardLab(&amp;A)</translation>
    </message>
    <message>
        <source>About ShardLab</source>
        <translation>关于 ShardLab</translation>
    </message>
    <message>
        <source>&lt;b&gt;ShardLab %1&lt;/b&gt;&lt;br&gt;A visual simulator and live profiler for multi-GPU programming: ownership, balance and necessary communication, made visible.</source>
        <translation>&lt;b&gt;ShardLab %1&lt;/b&gt;&lt;br&gt;多 GPU 编程的可视化模拟器与实时性能分析器：让所有权、均衡与必要的通信一目了然。</translation>
    </message>
    <message>
        <source>&amp;%1 %2</source>
        <translation>&amp;%1 %2</translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation>清除列表</translation>
    </message>
    <message>
        <source>%1[*] - %2 - ShardLab</source>
        <translation>%1[*] - %2 - ShardLab</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n 张 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 owned in total</source>
        <translation>共拥有 %1</translation>
    </message>
    <message>
        <source>imbalance %1 %</source>
        <translation>不均衡度 %1 %</translation>
    </message>
    <message>
        <source>everything fits</source>
        <translation>全部放得下</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s) do not fit</source>
        <translation>
            <numerusform>%n 张 GPU 放不下</numerusform>
        </translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Analysis</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>The machine, the workload and who owns which shard, the step program</source>
        <translation>机器、工作负载、谁拥有哪个 Shard、步骤程序</translation>
    </message>
    <message>
        <source>Run the scenario (simulated or live): per-rank timelines, playback, summary, hang sandbox</source>
        <translation>运行场景（模拟或实测）：每个 Rank 的时间线、回放、汇总、挂起沙盒</translation>
    </message>
    <message>
        <source>Message-size sweeps, scaling curves, collective choice, calibration and the diagnosis</source>
        <translation>消息大小扫描、扩展曲线、集合通信选择、校准和诊断</translation>
    </message>
    <message>
        <source>The machine during playback: what each GPU does, whom a waiting GPU waits for, the traffic on each link</source>
        <translation>回放中的机器：每个 GPU 在做什么、正在等待的 GPU 在等谁、每条链路上的流量</translation>
    </message>
    <message>
        <source>Hang sandbox</source>
        <translation>挂起沙盒</translation>
    </message>
    <message>
        <source>Inject a mismatched or skipped collective, let the watchdog catch it, read the flight recorder</source>
        <translation>注入一个不匹配或被跳过的集合通信，让看门狗捕获它，再查看飞行记录器</translation>
    </message>
    <message>
        <source>The lessons could not be loaded: %1</source>
        <translation>无法加载课程：%1</translation>
    </message>
    <message>
        <source>Lessons</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>E&amp;xport</source>
        <translation>导出(&amp;X)</translation>
    </message>
    <message>
        <source>The figure you are looking at: the diagram, the timeline or the plot that has the focus</source>
        <translation>你正在看的图：拓扑图、时间线，或拥有焦点的图表</translation>
    </message>
    <message>
        <source>Current view as &amp;PNG…</source>
        <translation>当前视图导出为 PNG(&amp;P)…</translation>
    </message>
    <message>
        <source> (1x, 2x or a DPI of your choice)</source>
        <translation>（1 倍、2 倍或自选 DPI）</translation>
    </message>
    <message>
        <source>Current view as &amp;SVG…</source>
        <translation>当前视图导出为 SVG(&amp;S)…</translation>
    </message>
    <message>
        <source> (vector)</source>
        <translation>（矢量）</translation>
    </message>
    <message>
        <source>Current view as P&amp;DF…</source>
        <translation>当前视图导出为 PDF(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Copy current view</source>
        <translation>复制当前视图(&amp;C)</translation>
    </message>
    <message>
        <source>Put the figure on the clipboard as an image and as SVG</source>
        <translation>把图以图像和 SVG 两种形式放到剪贴板</translation>
    </message>
    <message>
        <source>&amp;All figures to a folder…</source>
        <translation>全部图导出到文件夹(&amp;A)…</translation>
    </message>
    <message>
        <source>Every diagram and plot of every page as PNG (2x), SVG and PDF, for a report</source>
        <translation>每一页的每个拓扑图和图表，导出为 PNG（2 倍）、SVG 和 PDF，供报告使用</translation>
    </message>
    <message>
        <source>Every &amp;table as CSV…</source>
        <translation>每个表格导出为 CSV(&amp;T)…</translation>
    </message>
    <message>
        <source>The run&apos;s per-rank, collective and span tables, and every table on the pages, one CSV file each</source>
        <translation>本次运行的每 Rank 表、集合通信表和时间段表，以及各页上的每个表格，各写成一个 CSV 文件</translation>
    </message>
    <message>
        <source>Run as Chrome/Perfetto &amp;trace…</source>
        <translation>运行导出为 Chrome/Perfetto Trace(&amp;T)…</translation>
    </message>
    <message>
        <source>The current run, one process per rank, arrows joining each collective; opens in ui.perfetto.dev and back in ShardLab</source>
        <translation>当前运行，每个 Rank 一个进程，用箭头连接每次集合通信；可在 ui.perfetto.dev 中打开，也可在 ShardLab 中重新打开</translation>
    </message>
    <message>
        <source>Re&amp;port</source>
        <translation>报告(&amp;P)</translation>
    </message>
    <message>
        <source>Wrote the lab report %1</source>
        <translation>已写入实验报告 %1</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Every key of the menus, the playback, the timeline and the diagram</source>
        <translation>菜单、回放、时间线和拓扑图的所有按键</translation>
    </message>
    <message>
        <source>Version and what ShardLab is</source>
        <translation>版本以及 ShardLab 是什么</translation>
    </message>
    <message>
        <source>Start a new scenario on the classroom machine</source>
        <translation>在课堂机器上新建一个场景</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Save the scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <source>Save &amp;as…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Save the scenario under another name</source>
        <translation>以另一个名字保存场景</translation>
    </message>
    <message>
        <source>Close ShardLab</source>
        <translation>关闭 ShardLab</translation>
    </message>
    <message>
        <source>Take back the last edit; the menu names it</source>
        <translation>撤销上一次编辑；菜单中会写出它的名字</translation>
    </message>
    <message>
        <source>Make the edit taken back again</source>
        <translation>重新执行被撤销的编辑</translation>
    </message>
    <message>
        <source>Pick a &amp;machine…</source>
        <translation>选择机器(&amp;M)…</translation>
    </message>
    <message>
        <source>Replace the machine by a preset (H200, DGX-1, the classroom PCIe box...)</source>
        <translation>用预设替换机器（H200、DGX-1、课堂 PCIe 机器……）</translation>
    </message>
    <message>
        <source>Add a GPU to the machine</source>
        <translation>向机器添加一个 GPU</translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation>连接(&amp;C)…</translation>
    </message>
    <message>
        <source>Join two GPUs or switches by a link</source>
        <translation>用一条链路连接两个 GPU 或交换机</translation>
    </message>
    <message>
        <source>Add &amp;item…</source>
        <translation>添加条目(&amp;I)…</translation>
    </message>
    <message>
        <source>Add a workload item (parameters, gradients, optimizer state, activations, data)</source>
        <translation>添加一个工作负载条目（参数、梯度、优化器状态、激活值、数据）</translation>
    </message>
    <message>
        <source>&amp;Split item…</source>
        <translation>拆分条目(&amp;S)…</translation>
    </message>
    <message>
        <source>Split the selected item into shards, evenly or with sizes of your own</source>
        <translation>把选中的条目拆分为 Shard，均匀拆分或按你自己给的大小</translation>
    </message>
    <message>
        <source>Place every shard by a strategy: replicate, data parallel, ZeRO-1/2/3, tensor or pipeline parallel</source>
        <translation>按策略放置每个 Shard：复制、数据并行、ZeRO-1/2/3、张量并行或流水线并行</translation>
    </message>
    <message>
        <source>The selected shard tiles are no longer owned by their GPU</source>
        <translation>选中的 Shard 块不再归其 GPU 所有</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <source>Opened the lesson&apos;s scenario; press Ctrl+R to run it.</source>
        <translation>已打开该课程的场景；按 Ctrl+R 运行它。</translation>
    </message>
    <message>
        <source>Report &gt; Lab report writes the course&apos;s report for this scenario.</source>
        <translation>报告 &gt; 实验报告 会为这个场景写出课程的实验报告。</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>Run the scenario in the chosen mode; a run in progress is replaced</source>
        <translation>以所选模式运行场景；正在进行的运行会被替换</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>Stop the run in progress</source>
        <translation>停止正在进行的运行</translation>
    </message>
    <message>
        <source>&amp;Simulate</source>
        <translation>模拟(&amp;S)</translation>
    </message>
    <message>
        <source>Run on the analytic cost model: works on any computer</source>
        <translation>在解析成本模型上运行：任何电脑都可以</translation>
    </message>
    <message>
        <source>&amp;Live on this machine&apos;s GPUs</source>
        <translation>在本机 GPU 上实测(&amp;L)</translation>
    </message>
    <message>
        <source>Run real CUDA kernels and NCCL collectives</source>
        <translation>运行真实的 CUDA 内核和 NCCL 集合通信</translation>
    </message>
    <message>
        <source>Run real CUDA kernels and NCCL collectives: %1</source>
        <translation>运行真实的 CUDA 内核和 NCCL 集合通信：%1</translation>
    </message>
    <message>
        <source>Live mode is not available here: %1</source>
        <translation>此处无法使用实测模式：%1</translation>
    </message>
    <message>
        <source>    Live unavailable: %1</source>
        <translation>    实测不可用：%1</translation>
    </message>
    <message>
        <source>&amp;Hang sandbox</source>
        <translation>挂起沙盒(&amp;H)</translation>
    </message>
    <message>
        <source>Inject a mismatched or skipped collective on a rank, choose the watchdog&apos;s deadline, and read the flight recorder after the hang</source>
        <translation>在某个 Rank 上注入不匹配或被跳过的集合通信，选择看门狗的时限，并在挂起后查看飞行记录器</translation>
    </message>
    <message>
        <source>Run with the &amp;mistake</source>
        <translation>带着错误运行(&amp;M)</translation>
    </message>
    <message>
        <source>Run a copy of the scenario with the hang sandbox&apos;s mistake</source>
        <translation>运行带有挂起沙盒中那个错误的场景副本</translation>
    </message>
    <message>
        <source>Show the %1 page</source>
        <translation>显示“%1”页</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <source>The guided lessons of the course beside the pages: each opens its scenario, walks through steps and checks your answers</source>
        <translation>页面旁的课程引导：每一课会打开它的场景，逐步讲解并检查你的答案</translation>
    </message>
    <message>
        <source>&amp;Presenter mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Full screen, large fonts and a high-contrast theme for a projector; the keyboard drives the playback (Help &gt; Keyboard shortcuts). F11 or Esc leaves</source>
        <translation>全屏、大字体和高对比度主题，适合投影仪；用键盘控制回放（帮助 &gt; 键盘快捷键）。按 F11 或 Esc 退出</translation>
    </message>
    <message>
        <source>Presenter &amp;theme</source>
        <translation>演示主题(&amp;T)</translation>
    </message>
    <message>
        <source>Black on white: for bright rooms</source>
        <translation>白底黑字：适合明亮的房间</translation>
    </message>
    <message>
        <source>White on black: for dark rooms and glaring projectors</source>
        <translation>黑底白字：适合昏暗的房间和刺眼的投影仪</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>Live &amp;on…</source>
        <translation>在远程机器上实测(&amp;O)…</translation>
    </message>
    <message>
        <source>Run the scenario on another machine&apos;s GPUs through ssh (a lecture-room server, a cluster&apos;s login node) and watch it here as it happens</source>
        <translation>通过 ssh 在另一台机器的 GPU 上运行场景（教室的服务器、集群的登录节点），并在这里实时观看</translation>
    </message>
    <message>
        <source>&amp;Where to begin</source>
        <translation>从哪里开始(&amp;W)</translation>
    </message>
    <message>
        <source>The welcome note of the lessons: what they are and which one to start with</source>
        <translation>课程的欢迎说明：课程是什么，从哪一课开始</translation>
    </message>
    <message>
        <source>%1: opens a copy; saving asks where, the example stays as shipped</source>
        <translation>%1：打开的是副本；保存时会询问位置，示例保持原样</translation>
    </message>
    <message>
        <source>&amp;Profile a program…</source>
        <translation>分析程序(&amp;P)…</translation>
    </message>
    <message>
        <source>Run your own NCCL program (alone or under mpirun/torchrun) under ShardLab&apos;s NCCL profiler and watch its per-rank timeline grow here while it runs</source>
        <translation>在 ShardLab 的 NCCL 分析插件下运行你自己的 NCCL 程序（单独运行，或通过 mpirun/torchrun 启动），并在它运行期间在这里看到每个 Rank 的时间线逐步增长</translation>
    </message>
    <message>
        <source>The profiled program is open as an untitled document (%1 ranks).</source>
        <translation>被剖析的程序已作为未命名文档打开（%1 个 Rank）。</translation>
    </message>
    <message>
        <source>&amp;Light, high contrast</source>
        <translation>浅色，高对比度(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark, high contrast</source>
        <translation>深色，高对比度(&amp;D)</translation>
    </message>
    <message>
        <source>Open a scenario, a ShardLab result file or trace, or a job&apos;s recorded files: PyTorch profiler traces of every rank, Flight Recorder dumps, NCCL Inspector logs, nccl-tests -J output (several files at once; you can also drop them on the window)</source>
        <translation>打开场景、ShardLab 结果文件或 Trace，或一个作业记录下来的文件：每个 Rank 的 PyTorch 性能分析器跟踪文件、Flight Recorder 转储、NCCL Inspector 日志、nccl-tests -J 输出（可一次选多个文件；也可以直接拖到窗口上）</translation>
    </message>
    <message>
        <source>Open recorded &amp;job folder…</source>
        <translation>打开作业记录文件夹(&amp;J)…</translation>
    </message>
    <message>
        <source>Open the folder that holds a job&apos;s recorded files (a trace or dump per rank, or logs): the job opens as a run, diagnosed on the Analysis page</source>
        <translation>打开存放作业记录文件的文件夹（每个 Rank 一个跟踪文件或转储，或日志）：该作业作为一次运行打开，并在“分析”页诊断</translation>
    </message>
    <message>
        <source>New from a &amp;transformer plan…</source>
        <translation>从 Transformer 方案新建(&amp;T)…</translation>
    </message>
    <message>
        <source>Lay a real transformer (Llama 3, GPT-3, Mixtral...) out on a machine under TP, PP, CP, DP and ZeRO: memory per GPU, step time and MFU, then open the plan as a scenario</source>
        <translation>把真实的 Transformer（Llama 3、GPT-3、Mixtral……）按 TP、PP、CP、DP 和 ZeRO 布置到一台机器上：每张 GPU 的显存、单步时间和 MFU，然后把方案作为场景打开</translation>
    </message>
    <message>
        <source>Cannot open the plan</source>
        <translation>无法打开方案</translation>
    </message>
    <message>
        <source>The plan could not be written as a scenario.</source>
        <translation>无法把方案写成场景。</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>并排对比</translation>
    </message>
    <message>
        <source>The lesson&apos;s scenarios cannot be opened.</source>
        <translation>无法打开本课的场景。</translation>
    </message>
    <message>
        <source>Compare side &amp;by side…</source>
        <translation>并排对比(&amp;B)…</translation>
    </message>
    <message>
        <source>Simulate the open scenario and another one and show both timelines one above the other on one time axis, with what differs named (step, communication, collectives, memory)</source>
        <translation>模拟当前打开的场景和另一个场景，在同一条时间轴上把两条时间线上下排开，并指出不同之处（单步、通信、Collective、显存）</translation>
    </message>
    <message>
        <source>Compare side by side</source>
        <translation>并排对比</translation>
    </message>
    <message>
        <source>%1 cannot be opened.</source>
        <translation>无法打开 %1。</translation>
    </message>
    <message>
        <source>Pro&amp;jector view</source>
        <translation>投影视图(&amp;J)</translation>
    </message>
    <message>
        <source>The diagram and the timeline of the run together on the whole screen, the lesson&apos;s step as a large caption: for the back of a lecture hall. Esc or Shift+F11 closes it</source>
        <translation>把运行的拓扑图和时间线一起铺满整个屏幕，本课当前步骤作为大字标题：让教室最后一排也看得清。按 Esc 或 Shift+F11 关闭</translation>
    </message>
    <message>
        <source>Live with ranks sharing this &amp;GPU</source>
        <translation>多个 Rank 共用本机这块 GPU 实测(&amp;G)</translation>
    </message>
    <message numerus="yes">
        <source>Live with %n ranks on this one &amp;GPU</source>
        <translation>
            <numerusform>在这一块 GPU 上以 %n 个 Rank 实测(&amp;G)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Run the scenario&apos;s %n ranks as %n processes on this machine&apos;s one GPU, NCCL talking over loopback sockets: results, verification and waits are real; times are not those of %n GPUs</source>
        <translation>
            <numerusform>把场景的 %n 个 Rank 作为 %n 个进程放在本机的一块 GPU 上运行，NCCL 通过回环套接字通信：结果、校验和等待都是真实的；时间却不是 %n 块 GPU 的时间</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::MemoryBars</name>
    <message>
        <source>Memory per GPU of each pipeline stage: weights, gradients, optimizer state, activations and temporary buffers, darkest first; the line is the GPU&apos;s memory</source>
        <translation>每个流水线阶段每张 GPU 的显存：权重、梯度、优化器状态、激活和临时缓冲区，颜色由深到浅；虚线是 GPU 的显存容量</translation>
    </message>
    <message numerus="yes">
        <source>GB per GPU, by pipeline stage (%n stage(s))</source>
        <translation>
            <numerusform>每张 GPU 的 GB，按流水线阶段（%n 个阶段）</numerusform>
        </translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <source>temporary</source>
        <translation>临时</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::NewItemDialog</name>
    <message>
        <source>New workload item</source>
        <translation>新的工作负载条目</translation>
    </message>
    <message>
        <source>item %1</source>
        <translation>条目 %1</translation>
    </message>
    <message>
        <source>A size such as 24 GB (10^9 bytes), 512 MiB (2^20 bytes) or a number of bytes.</source>
        <translation>大小，例如 24 GB（10^9 字节）、512 MiB（2^20 字节），或者一个字节数。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>The new item starts as one shard that no GPU holds: drag it onto a GPU, or place everything by strategy.</source>
        <translation>新条目起初是一个没有任何 GPU 持有的 Shard：把它拖到某张 GPU 上，或者按策略放置所有内容。</translation>
    </message>
    <message>
        <source>The item needs a name.</source>
        <translation>条目需要一个名称。</translation>
    </message>
    <message>
        <source>&apos;%1&apos; exists already: names must be unique.</source>
        <translation>“%1”已存在：名称必须唯一。</translation>
    </message>
    <message>
        <source>The size must be above zero.</source>
        <translation>大小必须大于零。</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::OpEditor</name>
    <message>
        <source>Which one?</source>
        <translation>选哪个？</translation>
    </message>
    <message>
        <source>Answer what the next step needs, and ShardLab names the collective.</source>
        <translation>回答下一步需要什么，ShardLab 会告诉你该用哪个 Collective。</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>The workload item the step works on: compute time follows the share each GPU owns; a collective moves the item&apos;s size unless a size is given.</source>
        <translation>这一步所处理的工作负载条目：计算时间取决于每张 GPU 拥有的份额；除非另外指定大小，Collective 传输的是该条目的大小。</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Work over the whole item, e.g. 3.36 TFLOP. Each GPU does the share of the item it owns.</source>
        <translation>整个条目的计算量，例如 3.36 TFLOP。每张 GPU 完成它所拥有的那一份。</translation>
    </message>
    <message>
        <source>Work</source>
        <translation>计算量</translation>
    </message>
    <message>
        <source>Bytes of the collective (nccl-tests&apos; size: the full buffer). Empty: the item&apos;s size.</source>
        <translation>Collective 的字节数（nccl-tests 的大小：整个缓冲区）。留空：使用条目的大小。</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>The GPUs that take part: all, or a list such as 0-3, 6.</source>
        <translation>参与的 GPU：“全部”，或者一个列表，例如 0-3, 6。</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Reduce: the GPU that receives the sum. Broadcast: the GPU whose data is copied. Send/recv: the GPU that sends.</source>
        <translation>Reduce：接收总和的 GPU。Broadcast：数据被复制的 GPU。Send/Recv：发送方 GPU。</translation>
    </message>
    <message>
        <source>Root / sender</source>
        <translation>Root / 发送方</translation>
    </message>
    <message>
        <source>Send/recv: the GPU that receives.</source>
        <translation>Send/Recv：接收方 GPU。</translation>
    </message>
    <message>
        <source>Receiver</source>
        <translation>接收方</translation>
    </message>
    <message>
        <source>Buckets</source>
        <translation>分桶数</translation>
    </message>
    <message>
        <source>Overlap with compute</source>
        <translation>与计算重叠</translation>
    </message>
    <message>
        <source>auto picks ring, tree or NVLS (where the NVSwitch reduces) as NCCL&apos;s tuner does; the others force one, where the topology allows it.</source>
        <translation>auto 像 NCCL 的调优器那样在 ring、tree 和 NVLS（由 NVSwitch 完成归约）之间选择；其他选项强制使用指定的算法，前提是拓扑支持它。</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <source>operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>item</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>work</source>
        <translation>计算量</translation>
    </message>
    <message>
        <source>size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>ranks</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a list of ranks (expected all, or e.g. 0-3, 6).</source>
        <translation>“%1”不是 Rank 列表（应为“全部”，或例如 0-3, 6）。</translation>
    </message>
    <message>
        <source>root</source>
        <translation>Root</translation>
    </message>
    <message>
        <source>receiver</source>
        <translation>接收方</translation>
    </message>
    <message>
        <source>buckets</source>
        <translation>分桶数</translation>
    </message>
    <message>
        <source>overlap</source>
        <translation>重叠</translation>
    </message>
    <message>
        <source>algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <source>Select a step to edit it.</source>
        <translation>选择一个步骤来编辑它。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Step %1&lt;/b&gt;</source>
        <translation>&lt;b&gt;步骤 %1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>the item&apos;s size (%1)</source>
        <translation>条目的大小（%1）</translation>
    </message>
    <message>
        <source>a size, e.g. 1 GB</source>
        <translation>大小，例如 1 GB</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::PlanComparison</name>
    <message>
        <source>A (kept)</source>
        <translation>A（保留的）</translation>
    </message>
    <message>
        <source>B (the boxes)</source>
        <translation>B（当前输入）</translation>
    </message>
    <message>
        <source>B / A</source>
        <translation>B / A</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Tokens/s per GPU</source>
        <translation>每 GPU Token/s</translation>
    </message>
    <message>
        <source>Model TFLOP/s per GPU</source>
        <translation>每 GPU 模型 TFLOP/s</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <source>Peak memory per GPU</source>
        <translation>每 GPU 峰值显存</translation>
    </message>
    <message>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <source>Fits</source>
        <translation>放得下</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>refused</source>
        <translation>被拒绝</translation>
    </message>
    <message>
        <source>The planner&apos;s estimate of each plan; B / A above 1 means B is larger (a longer step, more tokens/s)</source>
        <translation>规划器对每个方案的估计；B / A 大于 1 表示 B 更大（单步更长、Token/s 更多）</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::PlanDialog</name>
    <message>
        <source>New from a transformer plan</source>
        <translation>从 Transformer 方案新建</translation>
    </message>
    <message>
        <source>The transformer: a shipped model (shapes from its paper or model card)</source>
        <translation>Transformer：随附的模型（形状取自其论文或模型卡）</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>The machine; more GPUs than it has repeat its first node, joined by a network switch</source>
        <translation>机器；GPU 数超过它时，按其第一个节点复制，并由网络交换机连接</translation>
    </message>
    <message>
        <source>M&amp;achine:</source>
        <translation>机器(&amp;A)：</translation>
    </message>
    <message>
        <source>GPUs in all: TP x CP x PP x DP</source>
        <translation>GPU 总数：TP x CP x PP x DP</translation>
    </message>
    <message>
        <source>&amp;GPUs:</source>
        <translation>GPU 数(&amp;G)：</translation>
    </message>
    <message>
        <source>Tensor parallel: each layer&apos;s matrices split over this many GPUs (keep it inside a node)</source>
        <translation>张量并行：每层的矩阵切分到这么多张 GPU 上（应留在一个节点内）</translation>
    </message>
    <message>
        <source>Pipeline parallel: the layers split into this many stages</source>
        <translation>流水线并行：各层切分成这么多个阶段</translation>
    </message>
    <message>
        <source>Context parallel: each sequence split over this many GPUs (ring attention)</source>
        <translation>上下文并行：每个序列切分到这么多张 GPU 上（环形注意力）</translation>
    </message>
    <message>
        <source>Expert parallel (mixtures of experts): the experts split over this many data-parallel replicas</source>
        <translation>专家并行（混合专家模型）：专家切分到这么多个数据并行副本上</translation>
    </message>
    <message>
        <source>Data parallel: the replicas the GPUs leave, GPUs / (TP x CP x PP)</source>
        <translation>数据并行：GPU 余下的副本数，GPU 数 / (TP x CP x PP)</translation>
    </message>
    <message>
        <source>TP</source>
        <translation>TP</translation>
    </message>
    <message>
        <source>PP</source>
        <translation>PP</translation>
    </message>
    <message>
        <source>CP</source>
        <translation>CP</translation>
    </message>
    <message>
        <source>EP</source>
        <translation>EP</translation>
    </message>
    <message>
        <source>Parallel sizes:</source>
        <translation>并行规模：</translation>
    </message>
    <message>
        <source>none (every replica holds everything)</source>
        <translation>无（每个副本持有全部）</translation>
    </message>
    <message>
        <source>ZeRO-1 (optimizer state sharded)</source>
        <translation>ZeRO-1（优化器状态分片）</translation>
    </message>
    <message>
        <source>ZeRO-2 (also the gradients)</source>
        <translation>ZeRO-2（梯度也分片）</translation>
    </message>
    <message>
        <source>ZeRO-3 (also the weights)</source>
        <translation>ZeRO-3（权重也分片）</translation>
    </message>
    <message>
        <source>FSDP (as ZeRO-3, with pipeline stages allowed)</source>
        <translation>FSDP（同 ZeRO-3，可与流水线阶段同用）</translation>
    </message>
    <message>
        <source>What data parallelism shards over its replicas</source>
        <translation>数据并行在其副本之间分片的内容</translation>
    </message>
    <message>
        <source>&amp;Sharding:</source>
        <translation>分片(&amp;S)：</translation>
    </message>
    <message>
        <source>Tokens per sequence</source>
        <translation>每个序列的词元数</translation>
    </message>
    <message>
        <source>Se&amp;quence length:</source>
        <translation>序列长度(&amp;Q)：</translation>
    </message>
    <message>
        <source>Sequences per micro-batch</source>
        <translation>每个微批的序列数</translation>
    </message>
    <message>
        <source>M&amp;icro-batch:</source>
        <translation>微批(&amp;I)：</translation>
    </message>
    <message>
        <source>Sequences per step; 0: one per GPU</source>
        <translation>每步的序列数；0：每张 GPU 一个</translation>
    </message>
    <message>
        <source>one per GPU</source>
        <translation>每张 GPU 一个</translation>
    </message>
    <message>
        <source>Global &amp;batch:</source>
        <translation>全局 Batch(&amp;B)：</translation>
    </message>
    <message>
        <source>selective (the attention core)</source>
        <translation>选择性（注意力核心）</translation>
    </message>
    <message>
        <source>none (keep every activation)</source>
        <translation>无（保留所有激活）</translation>
    </message>
    <message>
        <source>full (keep each layer&apos;s input only)</source>
        <translation>完全（只保留每层的输入）</translation>
    </message>
    <message>
        <source>Activation recomputation: memory saved for compute spent again in the backward pass</source>
        <translation>激活重计算：用反向传播中重做的计算换取显存</translation>
    </message>
    <message>
        <source>&amp;Recomputation:</source>
        <translation>重计算(&amp;R)：</translation>
    </message>
    <message>
        <source>1F1B</source>
        <translation>1F1B</translation>
    </message>
    <message>
        <source>GPipe</source>
        <translation>GPipe</translation>
    </message>
    <message>
        <source>interleaved 1F1B</source>
        <translation>交错 1F1B</translation>
    </message>
    <message>
        <source>The order of each stage&apos;s forward and backward passes; interleaving divides the bubble by V</source>
        <translation>每个阶段前向和反向传播的顺序；交错调度把气泡缩小为 1/V</translation>
    </message>
    <message>
        <source>V: chunks of layers per stage for the interleaved schedule</source>
        <translation>V：交错调度中每个阶段的层块数</translation>
    </message>
    <message>
        <source>V</source>
        <translation>V</translation>
    </message>
    <message>
        <source>FlashAttention (no score matrix kept)</source>
        <translation>FlashAttention（不保存分数矩阵）</translation>
    </message>
    <message>
        <source>&amp;Open as scenario</source>
        <translation>作为场景打开(&amp;O)</translation>
    </message>
    <message>
        <source>Open the plan as a new scenario: each stage&apos;s passes in the schedule&apos;s order, its collectives and its memory per GPU</source>
        <translation>把方案作为新场景打开：各阶段的前向、反向传播按调度顺序排列，并带有其集合通信和每张 GPU 的显存</translation>
    </message>
    <message>
        <source>DP %1</source>
        <translation>DP %1</translation>
    </message>
    <message>
        <source>DP: GPUs not divisible</source>
        <translation>DP：GPU 数不能整除</translation>
    </message>
    <message>
        <source>Step %1 s, %2 tokens/s per GPU, %3 model TFLOP/s per GPU (MFU %4 %), pipeline bubble %5 %.</source>
        <translation>单步 %1 秒，每张 GPU 每秒 %2 个词元，每张 GPU %3 模型 TFLOP/s（MFU %4 %），流水线气泡 %5 %。</translation>
    </message>
    <message>
        <source>Schedule:</source>
        <translation>调度：</translation>
    </message>
    <message>
        <source>&amp;Keep as A</source>
        <translation>保留为 A(&amp;K)</translation>
    </message>
    <message>
        <source>Keep this plan, then change the boxes: a table sets the new plan (B) against it</source>
        <translation>保留这个方案，然后修改输入：表格会把新方案（B）与它对比</translation>
    </message>
    <message>
        <source>&amp;Forget A</source>
        <translation>忘掉 A(&amp;F)</translation>
    </message>
    <message>
        <source>Stop comparing with the kept plan</source>
        <translation>不再与保留的方案对比</translation>
    </message>
    <message>
        <source>Side &amp;by side</source>
        <translation>并排对比(&amp;B)</translation>
    </message>
    <message>
        <source>Run both plans and show their timelines one above the other</source>
        <translation>运行两个方案，把它们的时间线上下并排显示</translation>
    </message>
    <message>
        <source>Measured &amp;file...</source>
        <translation>实测文件(&amp;F)...</translation>
    </message>
    <message>
        <source>GEMM and copy rates measured on the plan&apos;s GPU with `shardlab calibrate --compute`</source>
        <translation>用 `shardlab calibrate --compute` 在方案所用 GPU 上测得的 GEMM 与复制速率</translation>
    </message>
    <message>
        <source>As s&amp;hipped</source>
        <translation>随软件提供(&amp;H)</translation>
    </message>
    <message>
        <source>Price compute with what ShardLab ships for this GPU (or its datasheet)</source>
        <translation>按 ShardLab 为这种 GPU 提供的数据（或其规格表）估算计算时间</translation>
    </message>
    <message>
        <source>Compute calibration measured on the plan&apos;s GPU</source>
        <translation>在方案所用 GPU 上测得的算力校准</translation>
    </message>
    <message>
        <source>Compute calibration (*.json)</source>
        <translation>算力校准文件 (*.json)</translation>
    </message>
    <message>
        <source>Compute rates:</source>
        <translation>计算速率：</translation>
    </message>
    <message>
        <source>as shipped for this GPU</source>
        <translation>随软件为这种 GPU 提供的数据</translation>
    </message>
    <message>
        <source>measured: %1</source>
        <translation>实测：%1</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::PlaybackBar</name>
    <message>
        <source>Previous event (Left): the last span boundary or ring step</source>
        <translation>上一个事件（左方向键）：上一个时间段边界或环形步骤</translation>
    </message>
    <message>
        <source>Play / pause (Space)</source>
        <translation>播放 / 暂停（空格）</translation>
    </message>
    <message>
        <source>Next event (Right): the next span boundary or ring step</source>
        <translation>下一个事件（右方向键）：下一个时间段边界或环形步骤</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>Playback speed as a share of real time (+ / - change it). At 0.0001x one second of playback shows 100 µs of the run: slow enough to follow the steps of a ring.</source>
        <translation>回放速度，以实际时间的比例表示（按 + / - 调整）。在 0.0001x 下，一秒回放展示运行中的 100 µs：慢到足以看清环形算法的每一步。</translation>
    </message>
    <message>
        <source>Position in the run: drag to scrub</source>
        <translation>在运行中的位置：拖动以定位</translation>
    </message>
    <message>
        <source>%1x (1 s shows %2)</source>
        <translation>%1x（1 秒展示 %2）</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::PresenterMode</name>
    <message>
        <source>Lessons put away while presenting: the run needs the screen. View &gt; Lessons (Ctrl+L) shows them below the pages.</source>
        <translation>演示时已收起课程面板：运行需要整个屏幕。视图 &gt; 课程（Ctrl+L）可在页面下方重新显示。</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ProfileDialog</name>
    <message>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Enter the program to profile, with its arguments (for example ./allreduce).</source>
        <translation>请输入要分析的程序及其参数（例如 ./allreduce）。</translation>
    </message>
    <message>
        <source>Choose a folder for the records, the result file and the trace.</source>
        <translation>请选择存放记录、结果文件和跟踪的文件夹。</translation>
    </message>
    <message>
        <source>Enter ShardLab&apos;s command line program (shardlab, or its full path).</source>
        <translation>请输入 ShardLab 的命令行程序（shardlab，或它的完整路径）。</translation>
    </message>
    <message>
        <source>Profile a program</source>
        <translation>分析程序</translation>
    </message>
    <message>
        <source>./allreduce --size 64M</source>
        <translation>./allreduce --size 64M</translation>
    </message>
    <message>
        <source>The program and its arguments, as you would type them in a terminal. It must use NCCL 2.23 or newer, which loads the profiler; the last commands are remembered.</source>
        <translation>程序及其参数，写法与在终端中输入时相同。程序须使用 NCCL 2.23 或更新版本（由它加载分析插件）；最近用过的命令会被记住。</translation>
    </message>
    <message>
        <source>none: one process drives every GPU</source>
        <translation>无：由一个进程驱动所有 GPU</translation>
    </message>
    <message>
        <source>Optional: what starts one process per GPU, put before the program (mpirun -np 2, torchrun --nproc_per_node=2). Leave it empty for a program that drives all its GPUs.</source>
        <translation>可选：为每个 GPU 启动一个进程的启动器，放在程序之前（mpirun -np 2、torchrun --nproc_per_node=2）。若程序自己驱动所有 GPU，请留空。</translation>
    </message>
    <message>
        <source>Where the profiler writes each process&apos;s records, the result file (File &gt; Open shows it again) and the Chrome trace. Records of an earlier profile there are replaced.</source>
        <translation>分析器写入每个进程的记录、结果文件（用“文件 &gt; 打开”可再次查看）和 Chrome 跟踪的位置。该文件夹中以前分析留下的记录会被替换。</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>Choose the output folder</source>
        <translation>选择输出文件夹</translation>
    </message>
    <message>
        <source>ShardLab&apos;s command line program, which runs the program under the profiler and streams it here (`shardlab profile --live`).</source>
        <translation>ShardLab 的命令行程序：它在分析插件下运行程序，并把运行实时传到这里（`shardlab profile --live`）。</translation>
    </message>
    <message>
        <source>&amp;Program:</source>
        <translation>程序(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Launcher:</source>
        <translation>启动器(&amp;L)：</translation>
    </message>
    <message>
        <source>&amp;Output folder:</source>
        <translation>输出文件夹(&amp;O)：</translation>
    </message>
    <message>
        <source>&amp;ShardLab command:</source>
        <translation>ShardLab 命令(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <source>Start the program under the profiler; Stop on the run page ends it and keeps what it recorded</source>
        <translation>在分析插件下启动程序；运行页面上的“停止”会结束程序，并保留它已记录的内容</translation>
    </message>
    <message>
        <source>Output folder for the profile</source>
        <translation>分析的输出文件夹</translation>
    </message>
    <message>
        <source>Runs your own NCCL program under ShardLab&apos;s NCCL profiler, with no change to its code, and draws each rank&apos;s work, communication and waits here while it runs. Its own output goes to the profiler&apos;s log. When it ends, the program as observed opens as a new untitled document.</source>
        <translation>在 ShardLab 的 NCCL 剖析器下运行你自己的 NCCL 程序，无需修改其代码，并在运行过程中在这里画出每个 Rank 的计算、通信和等待。程序自身的输出写入剖析器的日志。程序结束后，观测到的程序会作为新的未命名文档打开。</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ProgramModel</name>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>, root %1</source>
        <translation>，Root %1</translation>
    </message>
    <message>
        <source>overlapped</source>
        <translation>重叠</translation>
    </message>
    <message>
        <source>Work over the whole item; each GPU does the share it owns.</source>
        <translation>整个条目的计算量；每张 GPU 完成它拥有的那一份。</translation>
    </message>
    <message>
        <source>Bytes of the collective, in nccl-tests&apos; convention (the full buffer).</source>
        <translation>Collective 的字节数，按 nccl-tests 的约定（整个缓冲区）。</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Buckets</source>
        <translation>分桶数</translation>
    </message>
    <message>
        <source>Overlap</source>
        <translation>重叠</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ProgramPanel</name>
    <message>
        <source>+ Compute</source>
        <translation>+ 计算</translation>
    </message>
    <message>
        <source>+ Collective...</source>
        <translation>+ Collective...</translation>
    </message>
    <message>
        <source>Asks what the next step needs, then adds the collective that delivers it.</source>
        <translation>先问下一步需要什么，再添加能提供它的 Collective。</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>How many times the program runs; the first iteration often differs (warm-up).</source>
        <translation>程序运行的次数；第一次迭代往往不同（预热）。</translation>
    </message>
    <message>
        <source>Iterations</source>
        <translation>迭代次数</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ProjectorView</name>
    <message>
        <source>ShardLab: projector view</source>
        <translation>ShardLab：投影视图</translation>
    </message>
    <message>
        <source>Space plays, arrows step, Esc closes</source>
        <translation>空格播放，方向键逐步，Esc 关闭</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::QuestionPanel</name>
    <message>
        <source>Hint</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Show a hint without giving the answer away</source>
        <translation>显示提示，但不透露答案</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>一个数字</translation>
    </message>
    <message>
        <source>Choose a collective…</source>
        <translation>选择一个 Collective…</translation>
    </message>
    <message>
        <source>A collective is an operation every rank of a group calls together</source>
        <translation>Collective（集合通信）是一组中每个 Rank 共同调用的操作</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Show answer</source>
        <translation>显示答案</translation>
    </message>
    <message>
        <source>Choose a lesson to see its questions.</source>
        <translation>选择一课来查看它的问题。</translation>
    </message>
    <message>
        <source>Give an answer first.</source>
        <translation>请先给出答案。</translation>
    </message>
    <message>
        <source>(%1)</source>
        <translation>（%1）</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::RankEvidenceModel</name>
    <message>
        <source>rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>compute (ms)</source>
        <translation>计算 (ms)</translation>
    </message>
    <message>
        <source>comm (ms)</source>
        <translation>通信 (ms)</translation>
    </message>
    <message>
        <source>wait (ms)</source>
        <translation>等待 (ms)</translation>
    </message>
    <message>
        <source>last</source>
        <translation>最后到达</translation>
    </message>
    <message>
        <source>work</source>
        <translation>计算量</translation>
    </message>
    <message>
        <source>slowdown</source>
        <translation>减速倍数</translation>
    </message>
    <message>
        <source>node/socket</source>
        <translation>节点/插槽</translation>
    </message>
    <message>
        <source>ring link (GB/s)</source>
        <translation>环形链路 (GB/s)</translation>
    </message>
    <message>
        <source>last collective #</source>
        <translation>最后完成的 Collective 序号</translation>
    </message>
    <message>
        <source>state</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>How many blocking collectives this rank reached last (the others waited for it)</source>
        <translation>该 Rank 有多少个阻塞式 Collective 是最后到达的（其他 Rank 都在等它）</translation>
    </message>
    <message>
        <source>Its share of the program&apos;s compute work; an even split is 1/n</source>
        <translation>它在程序计算量中所占的份额；平均切分时为 1/n</translation>
    </message>
    <message>
        <source>A per-rank factor on compute time: thermal throttling or a slower card</source>
        <translation>每个 Rank 的计算时间系数：过热降频或较慢的卡</translation>
    </message>
    <message>
        <source>The slower of the routes from its ring predecessor and to its successor</source>
        <translation>从环中前一个 Rank 到它、以及从它到后一个 Rank 这两条路径中较慢的一条</translation>
    </message>
    <message>
        <source>The sequence number of its last completed collective, as a flight recorder counts</source>
        <translation>它最后完成的 Collective 的序号，与飞行记录器的计数方式相同</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::RankTableModel</name>
    <message>
        <source>%1 (straggler)</source>
        <translation>%1（Straggler）</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Rank %1 owns more than its GPU holds</source>
        <translation>Rank %1 拥有的数据超过了其 GPU 的显存</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Comm</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>Last</source>
        <translation>最后到达</translation>
    </message>
    <message>
        <source>Time computing, per iteration (averaged over the iterations)</source>
        <translation>每次迭代的计算时间（对所有迭代取平均）</translation>
    </message>
    <message>
        <source>Exposed communication per iteration: time the compute stream is blocked in a collective (communication hidden behind compute is not counted)</source>
        <translation>每次迭代暴露的通信时间：计算 Stream 阻塞在 Collective 中的时间（被计算掩盖的通信不计在内）</translation>
    </message>
    <message>
        <source>Time idle at synchronisation points per iteration, waiting for the last rank to arrive</source>
        <translation>每次迭代在同步点空闲、等待最后一个 Rank 到达的时间</translation>
    </message>
    <message>
        <source>How many collectives this rank arrived at last, making the others wait</source>
        <translation>该 Rank 有多少次是最后到达 Collective、让其他 Rank 等待</translation>
    </message>
    <message>
        <source>Rank %1&apos;s peak (what it owns plus its largest collective buffer) is more than its GPU holds</source>
        <translation>Rank %1 的峰值（拥有的字节加上最大的集合通信缓冲）超过了它的 GPU 显存</translation>
    </message>
    <message>
        <source>Owned</source>
        <translation>拥有</translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation>峰值显存</translation>
    </message>
    <message>
        <source>What the scenario places on this rank: the shards it owns</source>
        <translation>场景放在这个 Rank 上的内容：它拥有的 Shard</translation>
    </message>
    <message>
        <source>Peak memory: what the rank owns plus its largest temporary buffer, against its GPU&apos;s memory (measured use on a live run). The peak decides whether the rank fits.</source>
        <translation>峰值显存：Rank 拥有的字节加上它最大的临时缓冲，对比它的 GPU 显存（实测运行时为实测用量）。能否放下由峰值决定。</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::RemoteDialog</name>
    <message>
        <source>Live on a remote machine</source>
        <translation>在远程机器上实测</translation>
    </message>
    <message>
        <source>Runs the scenario with the ShardLab installed on another machine, through your system&apos;s ssh (keys, agent and ~/.ssh/config as you set them up), and shows the run here as it happens.</source>
        <translation>通过系统自带的 ssh（使用您已配置的密钥、agent 和 ~/.ssh/config），用另一台机器上安装的 ShardLab 运行场景，并在这里实时显示运行过程。</translation>
    </message>
    <message>
        <source>an alias from ~/.ssh/config, or user@host</source>
        <translation>~/.ssh/config 中的别名，或 user@host</translation>
    </message>
    <message>
        <source>The machine with the GPUs: a Host alias of ~/.ssh/config (where its user, port, key and ProxyJump are set), or user@host. ShardLab never asks for a password: log in with a key.</source>
        <translation>装有 GPU 的机器：~/.ssh/config 中的 Host 别名（其中设置用户、端口、密钥和 ProxyJump），或 user@host。ShardLab 从不询问密码：请使用密钥登录。</translation>
    </message>
    <message>
        <source>The command run there, with the scenario on its standard input. Default: %1. On a Slurm cluster&apos;s login node, for example: srun -N1 --gpus-per-node=8 shardlab live --stream -</source>
        <translation>在那里运行的命令，场景通过其标准输入传入。默认：%1。在 Slurm 集群的登录节点上，例如：srun -N1 --gpus-per-node=8 shardlab live --stream -</translation>
    </message>
    <message>
        <source>&amp;Host:</source>
        <translation>主机(&amp;H)：</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>端口(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Command there:</source>
        <translation>远端命令(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Show the machine</source>
        <translation>查看机器(&amp;S)</translation>
    </message>
    <message>
        <source>Show the machine to see its GPUs before the run.</source>
        <translation>运行前可点击“查看机器”了解它的 GPU。</translation>
    </message>
    <message>
        <source>&amp;Run there</source>
        <translation>在那里运行(&amp;R)</translation>
    </message>
    <message>
        <source>Start the run on the remote machine; Cancel on the run page stops it there and frees its GPUs</source>
        <translation>在远程机器上开始运行；在运行页面点击“取消”会停止远端运行并释放其 GPU</translation>
    </message>
    <message>
        <source>Enter the command to run there (default: %1).</source>
        <translation>请输入要在那里运行的命令（默认：%1）。</translation>
    </message>
    <message>
        <source>Asking %1…</source>
        <translation>正在询问 %1…</translation>
    </message>
    <message>
        <source>Run `shardlab topo --json` there (through the same srun or mpirun as the command): its ShardLab version and its GPUs</source>
        <translation>在那里运行 `shardlab topo --json`（通过与命令相同的 srun 或 mpirun）：查看其 ShardLab 版本和 GPU</translation>
    </message>
    <message>
        <source>as configured</source>
        <translation>按配置</translation>
    </message>
    <message>
        <source>The SSH port; &quot;as configured&quot; uses the alias&apos;s Port, else 22.</source>
        <translation>SSH 端口；“按配置”使用别名中的 Port，否则为 22。</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ReportWriter</name>
    <message>
        <source>%1: expected a file name ending in .html or .pdf</source>
        <translation>%1：文件名应以 .html 或 .pdf 结尾</translation>
    </message>
    <message>
        <source>Lab report…</source>
        <translation>实验报告…</translation>
    </message>
    <message>
        <source>Write the course&apos;s lab report for this scenario: per-rank output, topology, timing at several message sizes, what limits scaling, and all-reduce against reduce-scatter + all-gather</source>
        <translation>为这个场景撰写课程的实验报告：逐 Rank 输出、拓扑、多个消息大小下的时间、限制扩展的因素，以及 All-Reduce 与 Reduce-Scatter + All-Gather 的对比</translation>
    </message>
    <message>
        <source>Write lab report</source>
        <translation>撰写实验报告</translation>
    </message>
    <message>
        <source>PDF document (*.pdf);;Web page (*.html)</source>
        <translation>PDF 文档 (*.pdf);;网页 (*.html)</translation>
    </message>
    <message>
        <source>Lab report</source>
        <translation>实验报告</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::RunController</name>
    <message>
        <source>Checking for GPUs…</source>
        <translation>正在检查 GPU…</translation>
    </message>
    <message>
        <source>%1 over SSH</source>
        <translation>%1（通过 SSH）</translation>
    </message>
    <message>
        <source>a run stream on this machine</source>
        <translation>本机上的运行流</translation>
    </message>
    <message>
        <source>Stopped: the program was ended; the run holds what it recorded until then.</source>
        <translation>已停止：程序已被结束；这次运行包含它此前记录的内容。</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::RunFileOpener</name>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Chrome trace</source>
        <translation>Chrome Trace</translation>
    </message>
    <message>
        <source>Cannot open the run</source>
        <translation>无法打开该运行</translation>
    </message>
    <message>
        <source>Opened the run in %1 (%2); its scenario is open as an untitled document.</source>
        <translation>已在 %1（%2）中打开该运行；它的场景已作为未命名文档打开。</translation>
    </message>
    <message>
        <source>Opened the trace %1 against the open scenario: it carries no scenario of its own.</source>
        <translation>已按当前打开的场景打开 Trace %1：它本身不带场景。</translation>
    </message>
    <message>
        <source>Reading cancelled; nothing was opened.</source>
        <translation>已取消读取；没有打开任何内容。</translation>
    </message>
    <message numerus="yes">
        <source>%n files</source>
        <translation>
            <numerusform>%n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Opening a recorded run</source>
        <translation>正在打开记录下来的运行</translation>
    </message>
    <message>
        <source>&quot;%1&quot; could not be opened as a run. Your current document and run are unchanged.</source>
        <translation>无法把“%1”作为运行打开。当前的文档和运行都没有改变。</translation>
    </message>
    <message>
        <source>nccl-tests sweep: %1</source>
        <translation>nccl-tests 扫描：%1</translation>
    </message>
    <message>
        <source>Measured rows beside ShardLab&apos;s simulation on the open scenario&apos;s machine (%1). Open a scenario on another machine to compare with it.</source>
        <translation>实测行与 ShardLab 在当前场景机器（%1）上的模拟并列。打开另一台机器上的场景即可与之对比。</translation>
    </message>
    <message numerus="yes">
        <source>Measured rows only: the open scenario&apos;s machine has fewer GPUs than the sweep&apos;s %n ranks.</source>
        <translation>
            <numerusform>只有实测行：当前场景的机器上的 GPU 少于这次扫描的 %n 个 Rank。</numerusform>
        </translation>
    </message>
    <message>
        <source>Opened the nccl-tests sweep %1.</source>
        <translation>已打开 nccl-tests 扫描 %1。</translation>
    </message>
    <message numerus="yes">
        <source>%1, %n rank(s)</source>
        <translation>
            <numerusform>%1，%n 个 Rank</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::RunPage</name>
    <message>
        <source>Simulate</source>
        <translation>模拟</translation>
    </message>
    <message>
        <source>Run the scenario on the analytic cost model: works on any computer</source>
        <translation>用解析成本模型运行场景：任何电脑上都能运行</translation>
    </message>
    <message>
        <source>Live on this machine&apos;s GPUs</source>
        <translation>在本机 GPU 上实机运行</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run the scenario (Ctrl+R); a run in progress is replaced</source>
        <translation>运行场景 (Ctrl+R)；正在进行的运行会被替换</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the run in progress</source>
        <translation>停止正在进行的运行</translation>
    </message>
    <message>
        <source>iteration %v of %m</source>
        <translation>迭代 %v / %m</translation>
    </message>
    <message>
        <source>No scenario yet</source>
        <translation>还没有场景</translation>
    </message>
    <message>
        <source>Ready: %1</source>
        <translation>就绪：%1</translation>
    </message>
    <message>
        <source>The scenario changed since this run: press Run to see the new one.</source>
        <translation>场景在这次运行之后已更改：按“运行”查看新的结果。</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Running on the GPUs…</source>
        <translation>正在 GPU 上运行…</translation>
    </message>
    <message>
        <source>Simulating…</source>
        <translation>正在模拟…</translation>
    </message>
    <message>
        <source>Simulating… (drawing every iteration once the run ends)</source>
        <translation>正在模拟…（运行结束后再绘制每次迭代）</translation>
    </message>
    <message>
        <source>Measured in %1 ms</source>
        <translation>实测用时 %1 ms</translation>
    </message>
    <message>
        <source>Simulated in %1 ms</source>
        <translation>模拟用时 %1 ms</translation>
    </message>
    <message>
        <source>The run hung: %1</source>
        <translation>运行挂起：%1</translation>
    </message>
    <message>
        <source>The simulation of this scenario failed, so there is nothing to compare with: %1</source>
        <translation>这个场景的模拟失败了，因此没有可以对比的结果：%1</translation>
    </message>
    <message>
        <source>Measured on this machine. The faint dotted lane under each rank is the simulation of the same scenario; the table on the right gives the error per phase.</source>
        <translation>在本机上实测。每个 Rank 下方浅色虚线的一行是同一场景的模拟结果；右侧表格给出每个阶段的误差。</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Run real CUDA kernels and NCCL collectives: %1</source>
        <translation>运行真实的 CUDA Kernel 和 NCCL Collective：%1</translation>
    </message>
    <message>
        <source>(live unavailable: hover for why)</source>
        <translation>（实机模式不可用：悬停查看原因）</translation>
    </message>
    <message>
        <source>iteration 999 of 999</source>
        <translation>第 999 次迭代，共 999 次</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>汇总</translation>
    </message>
    <message>
        <source>Step time, speed-up, efficiency, who waits for whom, and the per-rank table</source>
        <translation>步骤时间、加速比、效率、谁在等谁，以及每个 Rank 的表格</translation>
    </message>
    <message>
        <source>Measured run read from %1</source>
        <translation>从 %1 读取的实测运行</translation>
    </message>
    <message>
        <source>Simulated run read from %1</source>
        <translation>从 %1 读取的模拟运行</translation>
    </message>
    <message>
        <source>Measured by the run saved in %1. The faint dotted lane under each rank is the simulation of the same scenario on this computer&apos;s model; the table on the right gives the error per phase.</source>
        <translation>由保存在 %1 中的运行实测得到。每个 Rank 下方淡色虚线的那一行，是同一场景在本机模型上的模拟；右侧表格给出每个阶段的误差。</translation>
    </message>
    <message>
        <source>Running on %1 over SSH…</source>
        <translation>正在通过 SSH 在 %1 上运行…</translation>
    </message>
    <message>
        <source>Reading a run stream on this machine…</source>
        <translation>正在读取本机上的运行流…</translation>
    </message>
    <message>
        <source>Profiling %1… (Stop ends the program and keeps what it recorded)</source>
        <translation>正在分析 %1…（“停止”会结束程序，并保留它已记录的内容）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>End the profiled program; what it recorded until then is shown, marked incomplete</source>
        <translation>结束被分析的程序；它此前记录的内容会显示出来，并标为不完整</translation>
    </message>
    <message>
        <source>Profiling your program: its summary, per-rank table and diagnosis appear when it ends (or when you press Stop). The diagram shows the machine it ran on from then on.</source>
        <translation>正在剖析你的程序：程序结束（或按下“停止”）后，这里会显示它的摘要、每个 Rank 的表格和诊断。届时拓扑图也会换成它实际运行的机器。</translation>
    </message>
    <message>
        <source>The run failed, so there is nothing to show: the message above says why.</source>
        <translation>运行失败，因此没有可显示的结果：原因见上方的消息。</translation>
    </message>
    <message numerus="yes">
        <source>Running %n rank(s) on this machine&apos;s one GPU, one process each… (results and waits are real; times are not those of %n GPUs)</source>
        <translation>
            <numerusform>正在本机的一块 GPU 上运行 %n 个 Rank，每个一个进程……（结果和等待是真实的；时间却不是 %n 块 GPU 的时间）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Measured with %n rank(s) sharing one GPU</source>
        <translation>
            <numerusform>由 %n 个 Rank 共用一块 GPU 实测</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Measured with %n rank(s) taking turns on this one GPU: results, verification and waits are real, times are not those of %n GPU(s). The faint dotted lane under each rank is the simulation of the same scenario on this computer&apos;s model.</source>
        <translation>
            <numerusform>由 %n 个 Rank 轮流使用本机这一块 GPU 实测：结果、校验和等待都是真实的，时间却不是 %n 张 GPU 的时间。每个 Rank 下方淡色虚线的那一行，是同一场景在本机模型上的模拟。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ScalingModel</name>
    <message>
        <source>%1 is limited by %2</source>
        <translation>%1 受限于 %2</translation>
    </message>
    <message>
        <source>: %1 over %2</source>
        <translation>：%1，经由 %2</translation>
    </message>
    <message>
        <source> (does not fit)</source>
        <translation>（放不下）</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>nodes</source>
        <translation>节点数</translation>
    </message>
    <message>
        <source>step (ms)</source>
        <translation>单步 (ms)</translation>
    </message>
    <message>
        <source>speed-up</source>
        <translation>加速比</translation>
    </message>
    <message>
        <source>efficiency</source>
        <translation>效率</translation>
    </message>
    <message>
        <source>compute (ms)</source>
        <translation>计算 (ms)</translation>
    </message>
    <message>
        <source>comm (ms)</source>
        <translation>通信 (ms)</translation>
    </message>
    <message>
        <source>wait (ms)</source>
        <translation>等待 (ms)</translation>
    </message>
    <message>
        <source>idle (ms)</source>
        <translation>空闲 (ms)</translation>
    </message>
    <message>
        <source>limited by</source>
        <translation>受限于</translation>
    </message>
    <message>
        <source>One GPU&apos;s step time over this step time (the same total work)</source>
        <translation>单张 GPU 的单步时间除以此处的单步时间（总工作量相同）</translation>
    </message>
    <message>
        <source>GPUs x efficiency: how much more work is done per unit of time (scaled speed-up)</source>
        <translation>GPU 数 × 效率：单位时间内多完成了多少工作（按规模扩展的加速比）</translation>
    </message>
    <message>
        <source>Speed-up divided by the number of GPUs; 100 % is perfect scaling</source>
        <translation>加速比除以 GPU 数；100 % 即完美扩展</translation>
    </message>
    <message>
        <source>One GPU&apos;s step time over this step time, the work per GPU being the same</source>
        <translation>单张 GPU 的单步时间除以此处的单步时间，每张 GPU 的工作量相同</translation>
    </message>
    <message>
        <source>Per rank and step, averaged over ranks; the four add up to the step time</source>
        <translation>按 Rank 和步计，对所有 Rank 取平均；四项相加等于单步时间</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ScalingView</name>
    <message>
        <source>Strong scaling (same total work)</source>
        <translation>强扩展（总工作量不变）</translation>
    </message>
    <message>
        <source>Weak scaling (same work per GPU)</source>
        <translation>弱扩展（每张 GPU 的工作量不变）</translation>
    </message>
    <message>
        <source>Strong: the job is split over more GPUs. Weak: the job grows with the GPUs, so each keeps the same share</source>
        <translation>强扩展：把任务分给更多 GPU。弱扩展：任务随 GPU 数增长，每张 GPU 的份额保持不变</translation>
    </message>
    <message>
        <source>Simulated up to this many GPUs; beyond one machine, copies of its first node are joined by a 400 Gb/s InfiniBand network</source>
        <translation>最多模拟到这么多张 GPU；超出一台机器时，复制其第一个节点，节点间用 400 Gb/s InfiniBand 网络连接</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Up to GPUs</source>
        <translation>最多 GPU 数</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>speed-up</source>
        <translation>加速比</translation>
    </message>
    <message>
        <source>efficiency (%)</source>
        <translation>效率 (%)</translation>
    </message>
    <message>
        <source>ideal speed-up</source>
        <translation>理想加速比</translation>
    </message>
    <message>
        <source>efficiency</source>
        <translation>效率</translation>
    </message>
    <message>
        <source>per rank and step (ms)</source>
        <translation>每个 Rank 每步 (ms)</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Simulating up to %1 GPUs…</source>
        <translation>正在模拟，最多 %1 张 GPU…</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>crosses %1</source>
        <translation>跨越 %1</translation>
    </message>
    <message>
        <source>Strong scaling: speed-up = T(1) / T(n), efficiency = speed-up / n.</source>
        <translation>强扩展：加速比 = T(1) / T(n)，效率 = 加速比 / n。</translation>
    </message>
    <message>
        <source>Weak scaling: efficiency = T(1) / T(n), speed-up = n × efficiency.</source>
        <translation>弱扩展：效率 = T(1) / T(n)，加速比 = n × 效率。</translation>
    </message>
    <message>
        <source>Nothing along the curve stands out: each step adds GPUs without crossing a slower link.</source>
        <translation>曲线上没有特别突出的点：每一步增加 GPU 时都没有跨到更慢的链路上。</translation>
    </message>
    <message>
        <source>every step up to the maximum</source>
        <translation>从 1 逐步到最大值</translation>
    </message>
    <message>
        <source>The GPU counts to simulate, e.g. 1, 8, 16, 32 (one GPU is always included); empty: every step up to &quot;Up to GPUs&quot;</source>
        <translation>要模拟的 GPU 数，例如 1, 8, 16, 32（总会包含 1 张 GPU）；留空：逐步到“最多 GPU 数”</translation>
    </message>
    <message>
        <source>Points evenly spaced</source>
        <translation>各点等距</translation>
    </message>
    <message>
        <source>GPUs, linear</source>
        <translation>GPU 数，线性</translation>
    </message>
    <message>
        <source>GPUs, logarithmic</source>
        <translation>GPU 数，对数</translation>
    </message>
    <message>
        <source>Evenly spaced: every point readable. Linear: distances as GPU counts. Logarithmic: both axes, so that perfect scaling is the diagonal</source>
        <translation>等距：每个点都看得清。线性：距离与 GPU 数成正比。对数：两条轴都取对数，理想扩展就是对角线</translation>
    </message>
    <message>
        <source>GPU counts</source>
        <translation>GPU 数列表</translation>
    </message>
    <message>
        <source>GPU axis</source>
        <translation>GPU 轴</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a GPU count: the counts are whole numbers from 1 to %2, separated by commas</source>
        <translation>“%1”不是 GPU 数：GPU 数是 1 到 %2 之间的整数，用逗号分隔</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ShardModel</name>
    <message>
        <source>#%1  %2</source>
        <translation>#%1  %2</translation>
    </message>
    <message>
        <source>%1 #%2  %3</source>
        <translation>%1 #%2  %3</translation>
    </message>
    <message>
        <source>No GPU holds it yet.</source>
        <translation>还没有 GPU 持有它。</translation>
    </message>
    <message>
        <source>Held by %1 only (split).</source>
        <translation>只由 %1 持有（切分）。</translation>
    </message>
    <message>
        <source>Held by GPUs %1 (replicated).</source>
        <translation>由 GPU %1 持有（复制）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;&apos;%1&apos; #%2&lt;/b&gt;: bytes %3 to %4 (%5)&lt;br&gt;%6&lt;br&gt;&lt;i&gt;Drag onto a GPU to give it this shard; Ctrl-drag to replicate it there.&lt;/i&gt;&lt;br&gt;&lt;br&gt;%7</source>
        <translation>&lt;b&gt;“%1” #%2&lt;/b&gt;：第 %3 到 %4 字节（%5）&lt;br&gt;%6&lt;br&gt;&lt;i&gt;拖到某张 GPU 上，把这个 Shard 交给它；按住 Ctrl 拖动则复制到那里。&lt;/i&gt;&lt;br&gt;&lt;br&gt;%7</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::SharedGpu</name>
    <message>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message numerus="yes">
        <source>This scenario has %n GPU(s); between %1 and %2 ranks can share one GPU.</source>
        <translation>
            <numerusform>这个场景有 %n 块 GPU；一块 GPU 可由 %1 到 %2 个 Rank 共用。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>What</source>
        <translation>功能</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Playback (on the Run page; anywhere in presenter mode)</source>
        <translation>回放（在运行页上；演示模式下任何地方）</translation>
    </message>
    <message>
        <source>Play or pause</source>
        <translation>播放或暂停</translation>
    </message>
    <message>
        <source>Space</source>
        <translation>空格</translation>
    </message>
    <message>
        <source>Step to the next / previous event</source>
        <translation>跳到下一个 / 上一个事件</translation>
    </message>
    <message>
        <source>Right / Left</source>
        <translation>右 / 左</translation>
    </message>
    <message>
        <source>Faster / slower</source>
        <translation>加快 / 减慢</translation>
    </message>
    <message>
        <source>+ / -</source>
        <translation>+ / -</translation>
    </message>
    <message>
        <source>Go to the beginning / end of the run</source>
        <translation>跳到运行的开头 / 结尾</translation>
    </message>
    <message>
        <source>Home / End</source>
        <translation>Home / End</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Zoom at the pointer</source>
        <translation>在指针处缩放</translation>
    </message>
    <message>
        <source>Mouse wheel</source>
        <translation>鼠标滚轮</translation>
    </message>
    <message>
        <source>Pan</source>
        <translation>平移</translation>
    </message>
    <message>
        <source>Drag</source>
        <translation>拖动</translation>
    </message>
    <message>
        <source>Fit the whole run</source>
        <translation>适配整个运行</translation>
    </message>
    <message>
        <source>F</source>
        <translation>F</translation>
    </message>
    <message>
        <source>Move the playback there</source>
        <translation>把回放移到那里</translation>
    </message>
    <message>
        <source>Double-click</source>
        <translation>双击</translation>
    </message>
    <message>
        <source>Select a span and its collective on every rank</source>
        <translation>选择一个时间段以及它在每个 Rank 上的集合通信</translation>
    </message>
    <message>
        <source>Click</source>
        <translation>单击</translation>
    </message>
    <message>
        <source>Topology diagram</source>
        <translation>拓扑图</translation>
    </message>
    <message>
        <source>Middle button drag, or Space + drag</source>
        <translation>按住中键拖动，或按住空格拖动</translation>
    </message>
    <message>
        <source>Give a shard to a GPU / move it</source>
        <translation>把 Shard 交给某个 GPU / 移动它</translation>
    </message>
    <message>
        <source>Drag the tile</source>
        <translation>拖动该块</translation>
    </message>
    <message>
        <source>Replicate a shard</source>
        <translation>复制一个 Shard</translation>
    </message>
    <message>
        <source>Ctrl + drag the tile</source>
        <translation>按住 Ctrl 拖动该块</translation>
    </message>
    <message>
        <source>Presenter mode</source>
        <translation>演示模式</translation>
    </message>
    <message>
        <source>Leave presenter mode</source>
        <translation>退出演示模式</translation>
    </message>
    <message>
        <source>Esc or F11</source>
        <translation>Esc 或 F11</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::SideBySideView</name>
    <message>
        <source>ShardLab: two runs side by side</source>
        <translation>ShardLab：两次运行并排对比</translation>
    </message>
    <message>
        <source>Simulating “%1” and “%2”…</source>
        <translation>正在模拟“%1”和“%2”…</translation>
    </message>
    <message>
        <source>“%1” cannot be simulated: %2</source>
        <translation>无法模拟“%1”：%2</translation>
    </message>
    <message numerus="yes">
        <source>%1: step %2 ms on %n GPU(s)</source>
        <translation>
            <numerusform>%1：单步 %2 ms，%n 张 GPU</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::SpanLayer</name>
    <message>
        <source>waits %1 for rank %2</source>
        <translation>为 Rank %2 等待 %1</translation>
    </message>
    <message>
        <source>%1 for rank %2</source>
        <translation>%1，等 Rank %2</translation>
    </message>
    <message>
        <source>waits %1</source>
        <translation>等待 %1</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::SplitDialog</name>
    <message>
        <source>Split &apos;%1&apos;</source>
        <translation>切分“%1”</translation>
    </message>
    <message>
        <source>&apos;%1&apos; holds %2. Cut it into shards; each new shard keeps the GPUs of the old shard where it starts, then drag shards to move them.</source>
        <translation>“%1”的大小为 %2。把它切成多个 Shard；每个新 Shard 保留其起始位置所在旧 Shard 的 GPU，之后再拖动 Shard 来移动它们。</translation>
    </message>
    <message>
        <source>Evenly into</source>
        <translation>平均切成</translation>
    </message>
    <message>
        <source> shards</source>
        <translation> 份</translation>
    </message>
    <message>
        <source>Sizes</source>
        <translation>各份大小</translation>
    </message>
    <message>
        <source>e.g. 14 GB, 10 GB</source>
        <translation>例如 14 GB, 10 GB</translation>
    </message>
    <message>
        <source>Sizes separated by commas; together they must make the whole item.</source>
        <translation>用逗号分隔的大小；加起来必须等于整个条目。</translation>
    </message>
    <message numerus="yes">
        <source>%n shard(s) of about %1 each.</source>
        <translation>
            <numerusform>%n 个 Shard，每个约 %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>More shards than bytes.</source>
        <translation>Shard 数多于字节数。</translation>
    </message>
    <message>
        <source>The sizes make the whole item.</source>
        <translation>各份大小加起来正好是整个条目。</translation>
    </message>
    <message>
        <source>%1 still to place (the sizes make %2 of %3).</source>
        <translation>还有 %1 未分配（各份合计 %2，共 %3）。</translation>
    </message>
    <message>
        <source>%1 too much (the sizes make %2 of %3).</source>
        <translation>超出 %1（各份合计 %2，共 %3）。</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::SummaryPanel</name>
    <message>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <source>Mean time of one iteration, from its start to the last rank finishing</source>
        <translation>一次迭代的平均时间，从开始到最后一个 Rank 完成</translation>
    </message>
    <message>
        <source>Speed-up vs 1 GPU</source>
        <translation>相对 1 张 GPU 的加速比</translation>
    </message>
    <message>
        <source>Time of the same total work on one GPU (rank 0&apos;s), without communication, divided by the step time</source>
        <translation>同样的总工作量在一张 GPU（Rank 0 的 GPU）上不带通信所需的时间，除以单步时间</translation>
    </message>
    <message>
        <source>Efficiency</source>
        <translation>效率</translation>
    </message>
    <message>
        <source>Speed-up divided by the number of GPUs: 100% is perfect scaling</source>
        <translation>加速比除以 GPU 数：100% 即完美扩展</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Share of all ranks&apos; time spent in exposed communication (not hidden behind compute)</source>
        <translation>所有 Rank 的时间中花在暴露通信（未被计算掩盖）上的比例</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>Share of all ranks&apos; time spent idle at synchronisation points</source>
        <translation>所有 Rank 的时间中在同步点空闲的比例</translation>
    </message>
    <message>
        <source>Straggler</source>
        <translation>Straggler</translation>
    </message>
    <message>
        <source>The rank that arrives last at collectives most often, when the waiting it causes matters</source>
        <translation>最常最后一个到达 Collective 的 Rank（当它造成的等待值得关注时）</translation>
    </message>
    <message>
        <source>Bottleneck</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <source>Per rank, ms per iteration</source>
        <translation>每个 Rank，每次迭代的 ms</translation>
    </message>
    <message>
        <source>Simulated vs measured</source>
        <translation>模拟与实测对比</translation>
    </message>
    <message>
        <source>How far the model&apos;s prediction of each phase is from what this machine measured</source>
        <translation>模型对每个阶段的预测与本机实测结果相差多少</translation>
    </message>
    <message>
        <source>Press Run to simulate the scenario.</source>
        <translation>按“运行”来模拟这个场景。</translation>
    </message>
    <message>
        <source>No run yet.</source>
        <translation>还没有运行。</translation>
    </message>
    <message>
        <source>%1 of rank time</source>
        <translation>占 Rank 时间的 %1</translation>
    </message>
    <message>
        <source>rank %1 (last %2 times)</source>
        <translation>Rank %1（%2 次最后到达）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Simulated vs measured: not available (%1)</source>
        <translation>模拟与实测对比：不可用（%1）</translation>
    </message>
    <message>
        <source>%1 on 1 GPU</source>
        <translation>%1（1 个 GPU）</translation>
    </message>
    <message>
        <source>%1 on %2 GPUs</source>
        <translation>%1（%2 个 GPU）</translation>
    </message>
    <message>
        <source>Notes on this run</source>
        <translation>关于这次运行的说明</translation>
    </message>
    <message>
        <source>What the run changed or could not do, and how its clocks were aligned</source>
        <translation>这次运行改动了什么、有什么做不到，以及它的时钟是如何对齐的</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::SweepModel</name>
    <message>
        <source>From this size on, bandwidth, not latency, sets the time</source>
        <translation>从这个大小开始，决定时间的是带宽而不是延迟</translation>
    </message>
    <message>
        <source>N/A</source>
        <translation>N/A</translation>
    </message>
    <message>
        <source>size (B)</source>
        <translation>大小 (B)</translation>
    </message>
    <message>
        <source>count</source>
        <translation>count</translation>
    </message>
    <message>
        <source>type</source>
        <translation>type</translation>
    </message>
    <message>
        <source>redop</source>
        <translation>redop</translation>
    </message>
    <message>
        <source>root</source>
        <translation>root</translation>
    </message>
    <message>
        <source>sim time (µs)</source>
        <translation>模拟时间 (µs)</translation>
    </message>
    <message>
        <source>sim algbw (GB/s)</source>
        <translation>模拟 algbw (GB/s)</translation>
    </message>
    <message>
        <source>sim busbw (GB/s)</source>
        <translation>模拟 busbw (GB/s)</translation>
    </message>
    <message>
        <source>measured time (µs)</source>
        <translation>实测时间 (µs)</translation>
    </message>
    <message>
        <source>measured algbw (GB/s)</source>
        <translation>实测 algbw (GB/s)</translation>
    </message>
    <message>
        <source>measured busbw (GB/s)</source>
        <translation>实测 busbw (GB/s)</translation>
    </message>
    <message>
        <source>error %</source>
        <translation>误差 %</translation>
    </message>
    <message>
        <source>#wrong</source>
        <translation>#wrong</translation>
    </message>
    <message>
        <source>algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <source>Elements of the data type in the buffer</source>
        <translation>缓冲区中该数据类型的元素个数</translation>
    </message>
    <message>
        <source>Algorithm bandwidth: the buffer size divided by the time</source>
        <translation>算法带宽：缓冲区大小除以时间</translation>
    </message>
    <message>
        <source>Bus bandwidth: algbw times the traffic factor of the collective (2(n-1)/n for all-reduce), comparable with the link speed whatever the number of GPUs (nccl-tests)</source>
        <translation>总线带宽：algbw 乘以该 Collective 的流量系数（All-Reduce 为 2(n-1)/n），无论 GPU 数多少都能与链路速度直接比较（nccl-tests）</translation>
    </message>
    <message>
        <source>(simulated - measured) / measured</source>
        <translation>(模拟值 - 实测值) / 实测值</translation>
    </message>
    <message>
        <source>Elements that failed verification in the measured run</source>
        <translation>实测运行中校验失败的元素个数</translation>
    </message>
    <message>
        <source>The algorithm and protocol the cost model chose, as NCCL&apos;s tuner would</source>
        <translation>成本模型像 NCCL 的调优器那样选择的算法和协议</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::SweepView</name>
    <message>
        <source>The first N GPUs of the scenario&apos;s machine</source>
        <translation>场景所用机器的前 N 张 GPU</translation>
    </message>
    <message>
        <source>START:END:FACTOR as in nccl-tests (binary: 1M = 1,048,576 bytes), or a list such as 64K,1M,16M</source>
        <translation>与 nccl-tests 相同的 START:END:FACTOR（二进制：1M = 1,048,576 字节），或一个列表，例如 64K,1M,16M</translation>
    </message>
    <message>
        <source>Time (µs)</source>
        <translation>时间 (µs)</translation>
    </message>
    <message>
        <source>Algorithm bandwidth (GB/s)</source>
        <translation>算法带宽 (GB/s)</translation>
    </message>
    <message>
        <source>Bus bandwidth (GB/s)</source>
        <translation>总线带宽 (GB/s)</translation>
    </message>
    <message>
        <source>Bus bandwidth is comparable with the link speed whatever the number of GPUs</source>
        <translation>无论 GPU 数多少，总线带宽都能与链路速度直接比较</translation>
    </message>
    <message>
        <source>Measure on this machine</source>
        <translation>在本机上测量</translation>
    </message>
    <message>
        <source>Live mode is not built into this ShardLab: %1</source>
        <translation>此 ShardLab 未内置实机模式：%1</translation>
    </message>
    <message>
        <source>Run the same sweep with NCCL on this machine&apos;s GPUs and overlay it</source>
        <translation>在本机 GPU 上用 NCCL 运行同样的扫描，并叠加显示</translation>
    </message>
    <message>
        <source>Load measured sweep…</source>
        <translation>载入实测扫描…</translation>
    </message>
    <message>
        <source>Overlay a sweep measured elsewhere (the output of shardlab bench --json)</source>
        <translation>叠加显示在其他地方测得的扫描结果（shardlab bench --json 的输出）</translation>
    </message>
    <message>
        <source>Collective</source>
        <translation>Collective</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Sizes</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Plot</source>
        <translation>绘图</translation>
    </message>
    <message>
        <source>message size</source>
        <translation>消息大小</translation>
    </message>
    <message>
        <source>simulated</source>
        <translation>模拟</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>A sweep needs a machine with two or more GPUs.</source>
        <translation>扫描需要一台有两张或更多 GPU 的机器。</translation>
    </message>
    <message>
        <source>Simulating…</source>
        <translation>正在模拟…</translation>
    </message>
    <message>
        <source>Measuring on this machine&apos;s GPUs…</source>
        <translation>正在本机 GPU 上测量…</translation>
    </message>
    <message>
        <source>Measured sweep</source>
        <translation>实测扫描</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>%1 cannot be read</source>
        <translation>无法读取 %1</translation>
    </message>
    <message>
        <source>%1 holds no %2 on %3 GPUs; choose that collective and GPU count first</source>
        <translation>%1 中没有 %3 张 GPU 上的 %2；请先选择该 Collective 和 GPU 数</translation>
    </message>
    <message>
        <source>Simulated: latency α ≈ %1 µs, bandwidth β ≈ %2 GB/s (algbw); the bandwidth term reaches the latency at α·β ≈ %3, so from %4 on the sweep is bandwidth-bound.</source>
        <translation>模拟结果：延迟 α ≈ %1 µs，带宽 β ≈ %2 GB/s (algbw)；带宽项在 α·β ≈ %3 处追上延迟，所以从 %4 起扫描受带宽限制。</translation>
    </message>
    <message>
        <source>beyond the last size</source>
        <translation>超出最后一个大小</translation>
    </message>
    <message>
        <source>time (µs)</source>
        <translation>时间 (µs)</translation>
    </message>
    <message>
        <source>algbw (GB/s)</source>
        <translation>algbw (GB/s)</translation>
    </message>
    <message>
        <source>busbw (GB/s)</source>
        <translation>busbw (GB/s)</translation>
    </message>
    <message>
        <source> bandwidth-bound from %1</source>
        <translation> 从 %1 起受带宽限制</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::TimelineView</name>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <source>Wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>Simulated (faint, dotted)</source>
        <translation>模拟（浅色，虚线）</translation>
    </message>
    <message>
        <source>Collective (joins its ranks)</source>
        <translation>Collective（连接其各 Rank）</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>Rank %1</translation>
    </message>
    <message>
        <source>straggler</source>
        <translation>Straggler</translation>
    </message>
    <message>
        <source>comm stream</source>
        <translation>通信 Stream</translation>
    </message>
    <message>
        <source>simulated</source>
        <translation>模拟</translation>
    </message>
    <message>
        <source>time (%1)</source>
        <translation>时间 (%1)</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>步骤 %1</translation>
    </message>
    <message>
        <source>Injected delay</source>
        <translation>注入的延迟</translation>
    </message>
    <message>
        <source>Unified-memory paging</source>
        <translation>统一内存换页</translation>
    </message>
    <message>
        <source>rank %1, iteration %2</source>
        <translation>Rank %1，第 %2 次迭代</translation>
    </message>
    <message>
        <source>, communication stream</source>
        <translation>，通信 Stream</translation>
    </message>
    <message>
        <source> (simulated)</source>
        <translation>（模拟）</translation>
    </message>
    <message>
        <source>begin %1&lt;br&gt;end %2&lt;br&gt;duration %3</source>
        <translation>开始 %1&lt;br&gt;结束 %2&lt;br&gt;时长 %3</translation>
    </message>
    <message>
        <source>waited for rank %1, the last to arrive</source>
        <translation>等待 Rank %1，它最后到达</translation>
    </message>
    <message>
        <source>waited for its own overlapped collectives to finish</source>
        <translation>等待它自己的重叠 Collective 完成</translation>
    </message>
    <message>
        <source>%1 of %2 over %3 ranks (%4, %5)</source>
        <translation>%3 个 Rank 上 %2 的 %1（%4，%5）</translation>
    </message>
    <message>
        <source>%1 of %2 over ranks %3 (%4, %5)</source>
        <translation>Rank %3 之间 %2 的 %1（%4，%5）</translation>
    </message>
    <message>
        <source>iteration %1</source>
        <translation>第 %1 次迭代</translation>
    </message>
    <message numerus="yes">
        <source>%n spans aggregated in this pixel: zoom in to tell them apart</source>
        <translation>
            <numerusform>此像素内合并了 %n 个时间段：放大即可逐个分辨</numerusform>
        </translation>
    </message>
    <message>
        <source>rank %1 (straggler)</source>
        <translation>Rank %1（Straggler）</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::TopologyPanel</name>
    <message>
        <source>Pick a machine...</source>
        <translation>选择机器...</translation>
    </message>
    <message>
        <source>Replace the machine by a built-in one, or a cluster built from it. The workload and program stay.</source>
        <translation>用内置机器或由它组成的集群替换当前机器。工作负载和程序保持不变。</translation>
    </message>
    <message>
        <source>Add a GPU like the selected one</source>
        <translation>添加一张与所选 GPU 相同的 GPU</translation>
    </message>
    <message>
        <source>Remove GPU</source>
        <translation>删除 GPU</translation>
    </message>
    <message>
        <source>Connect...</source>
        <translation>连接...</translation>
    </message>
    <message>
        <source>Remove link</source>
        <translation>删除链路</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%n GPU(s), %2 node(s), %3 links</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%n 张 GPU，%2 个节点，%3 条链路</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>shardlab::gui::TopologyScene</name>
    <message>
        <source>Add a GPU like %1</source>
        <translation>添加一张与 %1 相同的 GPU</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>Memory of %1...</source>
        <translation>%1 的显存...</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>GPU 显存</translation>
    </message>
    <message>
        <source>Memory of %1 (e.g. 16 GB, 80 GB, 141 GB):</source>
        <translation>%1 的显存（例如 16 GB、80 GB、141 GB）：</translation>
    </message>
    <message>
        <source>Speed of %1...</source>
        <translation>%1 的算力...</translation>
    </message>
    <message>
        <source>GPU speed</source>
        <translation>GPU 算力</translation>
    </message>
    <message>
        <source>Sustained compute rate of %1 in TFLOP/s:</source>
        <translation>%1 的持续计算速率，单位 TFLOP/s：</translation>
    </message>
    <message>
        <source>Connect %1 to...</source>
        <translation>把 %1 连接到...</translation>
    </message>
    <message>
        <source>Take every shard off %1</source>
        <translation>把所有 Shard 从 %1 上移除</translation>
    </message>
    <message>
        <source>Bandwidth...</source>
        <translation>带宽...</translation>
    </message>
    <message>
        <source>Link bandwidth</source>
        <translation>链路带宽</translation>
    </message>
    <message>
        <source>Bandwidth per direction in GB/s:</source>
        <translation>每个方向的带宽，单位 GB/s：</translation>
    </message>
    <message>
        <source>NVLink links in the bundle...</source>
        <translation>捆绑的 NVLink 链路数...</translation>
    </message>
    <message>
        <source>NVLink bundle</source>
        <translation>NVLink 捆绑</translation>
    </message>
    <message>
        <source>Links bundled (NV18 = 18):</source>
        <translation>捆绑的链路数（NV18 = 18）：</translation>
    </message>
    <message>
        <source>Remove this link</source>
        <translation>删除这条链路</translation>
    </message>
    <message>
        <source>Take %1 off %2</source>
        <translation>把 %1 从 %2 上移除</translation>
    </message>
    <message numerus="yes">
        <source>Take %n shard(s) off their GPUs</source>
        <translation>
            <numerusform>把 %n 个 Shard 从其 GPU 上移除</numerusform>
        </translation>
    </message>
    <message>
        <source>every GPU pair %1</source>
        <translation>每对 GPU 之间为 %1</translation>
    </message>
    <message>
        <source>GPUs below: %1</source>
        <translation>下挂 GPU：%1</translation>
    </message>
    <message>
        <source>mixed GPUs</source>
        <translation>混合 GPU</translation>
    </message>
    <message>
        <source>Node %1  ·  %2 × %3</source>
        <translation>节点 %1  ·  %2 × %3</translation>
    </message>
    <message>
        <source>Node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <source>&lt;br&gt;&amp;nbsp;&amp;nbsp;%1 to GPU %2</source>
        <translation>&lt;br&gt;&amp;nbsp;&amp;nbsp;到 GPU %2 为 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 of %3&lt;br&gt;%4&lt;br&gt;&lt;i&gt;Drag to another GPU to move it; Ctrl-drag to replicate it.&lt;/i&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2 / %3&lt;br&gt;%4&lt;br&gt;&lt;i&gt;拖到另一张 GPU 上以移动它；按住 Ctrl 拖动则复制它。&lt;/i&gt;</translation>
    </message>
    <message>
        <source>replicated on GPUs %1</source>
        <translation>复制在 GPU %1 上</translation>
    </message>
    <message>
        <source>split: only this GPU holds it</source>
        <translation>切分：只有这张 GPU 持有它</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;font color=&apos;#c62828&apos;&gt;&lt;b&gt;Does not fit: %1 too much.&lt;/b&gt;&lt;/font&gt;</source>
        <translation>&lt;br&gt;&lt;font color=&apos;#c62828&apos;&gt;&lt;b&gt;放不下：超出 %1。&lt;/b&gt;&lt;/font&gt;</translation>
    </message>
    <message>
        <source>%1 waits for %2</source>
        <translation>%1 在等 %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2, %3 memory, %4 TFLOP/s, node %5&lt;br&gt;Owns %6 (%7 % of its memory); peak with the largest collective buffer %11%8&lt;br&gt;Paths to the other GPUs (as nvidia-smi topo -m names them):%9&lt;br&gt;&lt;br&gt;%10</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2，显存 %3，%4 TFLOP/s，节点 %5&lt;br&gt;拥有 %6（占显存 %7 %）；加上最大的集合通信缓冲后峰值 %11%8&lt;br&gt;到其他 GPU 的路径（按 nvidia-smi topo -m 的叫法）：%9&lt;br&gt;&lt;br&gt;%10</translation>
    </message>
    <message numerus="yes">
        <source>%n rank(s) wait for %1</source>
        <translation>
            <numerusform>%n 个 Rank 在等 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>stage %1 · TP %2</source>
        <translation>第 %1 阶段 · TP %2</translation>
    </message>
    <message>
        <source> · CP %1</source>
        <translation> · CP %1</translation>
    </message>
    <message>
        <source> · DP %1</source>
        <translation> · DP %1</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;i&gt;Drag it onto another GPU to swap its TP group with that GPU&apos;s; with Shift, its pipeline stage (also in its context menu).&lt;/i&gt;</source>
        <translation>&lt;br&gt;&lt;i&gt;把它拖到另一张 GPU 上，即与那张 GPU 交换所在的 TP 组；按住 Shift 则交换流水线阶段（右键菜单中也有）。&lt;/i&gt;</translation>
    </message>
    <message>
        <source>Swap the TP group of %1 with that of GPU...</source>
        <translation>将 %1 所在的 TP 组与另一张 GPU 的交换...</translation>
    </message>
    <message>
        <source>Swap the pipeline stage of %1 with that of GPU...</source>
        <translation>将 %1 所在的流水线阶段与另一张 GPU 的交换...</translation>
    </message>
    <message>
        <source>Move on the mesh</source>
        <translation>在网格上移动</translation>
    </message>
    <message>
        <source>The GPU whose pipeline stage trades places with %1&apos;s:</source>
        <translation>与 %1 交换流水线阶段的 GPU：</translation>
    </message>
    <message>
        <source>The GPU whose TP group trades places with %1&apos;s:</source>
        <translation>与 %1 交换 TP 组的 GPU：</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::WorkloadModel</name>
    <message>
        <source>no owner</source>
        <translation>没有所有者</translation>
    </message>
    <message>
        <source>replicated on every GPU</source>
        <translation>复制在每张 GPU 上</translation>
    </message>
    <message>
        <source>replicated on GPUs %1</source>
        <translation>复制在 GPU %1 上</translation>
    </message>
    <message>
        <source>on %1 only</source>
        <translation>只在 %1 上</translation>
    </message>
    <message>
        <source>split and replicated over GPUs %1</source>
        <translation>切分并复制在 GPU %1 上</translation>
    </message>
    <message>
        <source>split over GPUs %1</source>
        <translation>切分到 GPU %1 上</translation>
    </message>
    <message numerus="yes">
        <source>; %n shard(s) without owner</source>
        <translation>
            <numerusform>；%n 个 Shard 没有所有者</numerusform>
        </translation>
    </message>
    <message>
        <source>Double-click to rename. Program steps that use the item follow the new name.</source>
        <translation>双击重命名。使用该条目的程序步骤会随之使用新名称。</translation>
    </message>
    <message>
        <source>%1 bytes. Double-click to change: e.g. 24 GB, 512 MiB. Shards keep their share.</source>
        <translation>%1 字节。双击修改：例如 24 GB、512 MiB。各 Shard 保持原有比例。</translation>
    </message>
    <message>
        <source>Pieces the item is cut into. Use Split... to cut it differently.</source>
        <translation>该条目被切成的片段。用“切分为 Shard...”换一种切法。</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Shards</source>
        <translation>Shard</translation>
    </message>
    <message>
        <source>Where it lives</source>
        <translation>所在位置</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::WorkloadPanel</name>
    <message>
        <source>Add item...</source>
        <translation>添加条目...</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Split into shards...</source>
        <translation>切分为 Shard...</translation>
    </message>
    <message>
        <source>Shards: drag onto a GPU (Ctrl: replicate)</source>
        <translation>Shard：拖到 GPU 上（按住 Ctrl：复制）</translation>
    </message>
    <message>
        <source>Show the shards of every item</source>
        <translation>显示所有条目的 Shard</translation>
    </message>
    <message>
        <source>Place everything by strategy</source>
        <translation>按策略放置所有内容</translation>
    </message>
    <message>
        <source>Place</source>
        <translation>放置</translation>
    </message>
    <message>
        <source>Rewrites every item&apos;s shards and owners the way the strategy does (one undoable step).</source>
        <translation>按照该策略的方式重写每个条目的 Shard 和所有者（可一步撤销）。</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>&lt;b&gt;Replicated&lt;/b&gt; on every GPU: %1&lt;br&gt;&lt;b&gt;Split&lt;/b&gt; across the GPUs: %2&lt;br&gt;%3</source>
        <translation>&lt;b&gt;复制&lt;/b&gt;在每张 GPU 上：%1&lt;br&gt;&lt;b&gt;切分&lt;/b&gt;到各 GPU 上：%2&lt;br&gt;%3</translation>
    </message>
    <message>
        <source>Placed by %1</source>
        <translation>按 %1 放置</translation>
    </message>
</context>
<context>
    <name>shardlab::gui::i18n::PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <source>System (%1)</source>
        <translation>跟随系统（%1）</translation>
    </message>
    <message>
        <source>The language of menus, dialogs and explanations. Lesson texts follow it too; messages computed by the engine (diagnoses, error details) stay in English.</source>
        <translation>菜单、对话框和说明文字的语言。课程文本也随之切换；由引擎计算出的消息（诊断、错误详情）仍为英文。</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>The interface changes to %1 the next time ShardLab starts.</source>
        <translation>界面将在下次启动 ShardLab 时切换为 %1。</translation>
    </message>
    <message>
        <source>&amp;Preferences...</source>
        <translation>首选项(&amp;P)...</translation>
    </message>
</context>
</TS>
