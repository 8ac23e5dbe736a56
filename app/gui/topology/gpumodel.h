// The machine's GPUs as a table (device, memory, speed, node) and its links (ends, class, bundle,
// bandwidth, latency). Device, memory, speed, bundle and bandwidth are editable in place.
#pragma once

#include "shardlab/model/topology.h"
#include "common/snapshotmodel.h"

#include <vector>

namespace shardlab::gui {

class Document;

class GpuModel : public SnapshotTableModel {
    Q_OBJECT
public:
    enum Column { Rank, Device, Memory, Tflops, Node, ColumnCount };
    explicit GpuModel(Document* document, QObject* parent = nullptr);
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

protected:
    int shownRows() const override { return static_cast<int>(m_gpus.size()); }
    QStringList headers() const override;

private:
    Document* m_document;
    std::vector<Gpu> m_gpus;
};

class LinkModel : public SnapshotTableModel {
    Q_OBJECT
public:
    enum Column { From, To, Class, Count, Bandwidth, Latency, ColumnCount };
    explicit LinkModel(Document* document, QObject* parent = nullptr);
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

protected:
    int shownRows() const override { return static_cast<int>(m_links.size()); }
    QStringList headers() const override;

private:
    Document* m_document;
    std::vector<Link> m_links;
};

} // namespace shardlab::gui
