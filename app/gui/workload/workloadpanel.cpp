#include "workload/workloadpanel.h"

#include "document/document.h"
#include "document/edits.h"
#include "common/glossary.h"
#include "common/labels.h"
#include "i18n/language.h"
#include "workload/itemdialogs.h"
#include "workload/shardmodel.h"
#include "workload/workloadmodel.h"

#include "shardlab/model/strategies.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListView>
#include <QPainter>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace shardlab::gui {

namespace {

// Item kinds edited with a combo box.
class KindDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const override
    {
        auto* combo = new QComboBox(parent);
        for (int k = 0; k <= static_cast<int>(ItemKind::Data); ++k)
            combo->addItem(Labels::itemKind(static_cast<ItemKind>(k)), k);
        return combo;
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override
    {
        auto* combo = static_cast<QComboBox*>(editor);
        combo->setCurrentIndex(combo->findData(index.data(Qt::EditRole)));
    }
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override
    {
        model->setData(index, static_cast<QComboBox*>(editor)->currentData(), Qt::EditRole);
    }
};

// Shards drawn as coloured tiles like those on the GPU cards.
class TileDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        const QFontMetrics fm(option.font);
        return QSize(fm.horizontalAdvance(index.data().toString()) + 24, fm.height() + 14);
    }
    void paint(QPainter* p, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        p->save();
        p->setRenderHint(QPainter::Antialiasing);
        const QRectF r = QRectF(option.rect).adjusted(3, 3, -3, -3);
        const QColor c = index.data(ShardModel::ColourRole).value<QColor>();
        const bool selected = option.state & QStyle::State_Selected;
        const bool unowned = index.data(ShardModel::OwnersRole).toList().isEmpty();
        p->setPen(selected ? QPen(option.palette.color(QPalette::Highlight), 3) : QPen(c.darker(140), 1));
        p->setBrush(unowned ? QBrush(c.lighter(160)) : QBrush(c));
        p->drawRoundedRect(r, 5, 5);
        p->setPen(unowned ? c.darker(160) : QColor(Qt::white));
        QFont f = option.font;
        f.setBold(true);
        p->setFont(f);
        p->drawText(r, Qt::AlignCenter, index.data().toString());
        p->restore();
    }
};

} // namespace

WorkloadPanel::WorkloadPanel(Document* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_workloadModel(new WorkloadModel(document, this)),
      m_shardModel(new ShardModel(document, this))
{
    auto* layout = new QVBoxLayout(this);

    m_items = new QTableView(this);
    m_items->setModel(m_workloadModel);
    m_items->setItemDelegateForColumn(WorkloadModel::Kind, new KindDelegate(m_items));
    m_items->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_items->setSelectionMode(QAbstractItemView::SingleSelection);
    m_items->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_items->verticalHeader()->hide();
    m_items->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_items->horizontalHeader()->setStretchLastSection(true);
    m_items->setWordWrap(false);
    layout->addWidget(m_items, 2);

    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add item..."), this);
    m_remove = new QPushButton(tr("Remove"), this);
    m_split = new QPushButton(tr("Split into shards..."), this);
    m_split->setToolTip(Glossary::shard());
    buttons->addWidget(add);
    buttons->addWidget(m_remove);
    buttons->addWidget(m_split);
    buttons->addStretch();
    layout->addLayout(buttons);

    auto* shardBox = new QGroupBox(tr("Shards: drag onto a GPU (Ctrl: replicate)"), this);
    auto* shardLayout = new QVBoxLayout(shardBox);
    m_allItems = new QCheckBox(tr("Show the shards of every item"), shardBox);
    shardLayout->addWidget(m_allItems);
    m_shards = new QListView(shardBox);
    m_shards->setModel(m_shardModel);
    m_shards->setItemDelegate(new TileDelegate(m_shards));
    m_shards->setViewMode(QListView::ListMode);
    m_shards->setFlow(QListView::LeftToRight);
    m_shards->setWrapping(true);
    m_shards->setResizeMode(QListView::Adjust);
    m_shards->setSpacing(2);
    m_shards->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_shards->setDragEnabled(true);
    m_shards->setDragDropMode(QAbstractItemView::DragOnly);
    m_shards->setDefaultDropAction(Qt::MoveAction);
    m_shards->setToolTip(Glossary::shard());
    shardLayout->addWidget(m_shards);
    layout->addWidget(shardBox, 2);

    auto* strategyBox = new QGroupBox(tr("Place everything by strategy"), this);
    auto* strategyLayout = new QVBoxLayout(strategyBox);
    auto* row = new QHBoxLayout;
    m_strategy = new QComboBox(strategyBox);
    for (Strategy s : allStrategies()) {
        m_strategy->addItem(Labels::strategy(s), static_cast<int>(s));
        m_strategy->setItemData(m_strategy->count() - 1, Glossary::strategy(s), Qt::ToolTipRole);
    }
    auto* place = new QPushButton(tr("Place"), strategyBox);
    place->setToolTip(tr("Rewrites every item's shards and owners the way the strategy does (one undoable step)."));
    row->addWidget(m_strategy, 1);
    row->addWidget(place);
    strategyLayout->addLayout(row);
    m_outcome = new QLabel(strategyBox);
    m_outcome->setWordWrap(true);
    m_outcome->setTextFormat(Qt::RichText);
    strategyLayout->addWidget(m_outcome);
    layout->addWidget(strategyBox);

    connect(add, &QPushButton::clicked, this, &WorkloadPanel::addItem);
    connect(m_remove, &QPushButton::clicked, this, &WorkloadPanel::removeItem);
    connect(m_split, &QPushButton::clicked, this, &WorkloadPanel::splitItem);
    connect(place, &QPushButton::clicked, this, &WorkloadPanel::placeByStrategy);
    connect(m_strategy, &QComboBox::currentIndexChanged, this,
            [this] { m_strategy->setToolTip(m_strategy->currentData(Qt::ToolTipRole).toString()); });
    // The placement's summary describes the document it was made in; another document (open,
    // new, recovery) starts without one, its strategy (when it names one) chosen in the box.
    connect(m_document, &Document::documentReset, this, [this] {
        m_outcome->clear();
        if (const auto strategy = strategyFromName(m_document->scenario().strategy))
            m_strategy->setCurrentIndex(m_strategy->findData(static_cast<int>(*strategy)));
    });
    connect(m_allItems, &QCheckBox::toggled, this, &WorkloadPanel::itemSelectionChanged);
    connect(m_items->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &WorkloadPanel::itemSelectionChanged);
    connect(m_workloadModel, &QAbstractItemModel::modelReset, this, &WorkloadPanel::itemSelectionChanged);
    connect(m_workloadModel, &WorkloadModel::editFailed, this, &WorkloadPanel::editFailed);
    m_strategy->setToolTip(m_strategy->currentData(Qt::ToolTipRole).toString());
    if (m_workloadModel->rowCount() > 0)
        m_items->selectRow(0);
    itemSelectionChanged();
}

int WorkloadPanel::currentItem() const
{
    const QModelIndexList rows = m_items->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.first().row();
}

QString WorkloadPanel::outcomeText() const { return m_outcome->text(); }

void WorkloadPanel::itemSelectionChanged()
{
    if (currentItem() < 0 && m_workloadModel->rowCount() > 0) {
        m_items->selectRow(0); // comes back here through selectionChanged
        return;
    }
    const int item = currentItem();
    m_shardModel->setItem(m_allItems->isChecked() ? -1 : item);
    updateButtons();
}

void WorkloadPanel::updateButtons()
{
    const bool has = currentItem() >= 0;
    m_remove->setEnabled(has);
    m_split->setEnabled(has);
}

void WorkloadPanel::addItem()
{
    NewItemDialog dialog(m_document->scenario().workload, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (Status st = Edits::addItem(*m_document, dialog.item()); !st)
        emit editFailed(i18n::engineError(st.error()));
    else
        m_items->selectRow(m_workloadModel->rowCount() - 1);
}

void WorkloadPanel::removeItem()
{
    if (Status st = Edits::removeItem(*m_document, currentItem()); !st)
        emit editFailed(i18n::engineError(st.error()));
}

void WorkloadPanel::splitItem()
{
    const int item = currentItem();
    if (item < 0)
        return;
    const WorkloadItem copy = m_document->scenario().workload.items[static_cast<size_t>(item)];
    SplitDialog dialog(copy, m_document->scenario().ranks(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (Status st = Edits::splitItem(*m_document, item, dialog.shards()); !st)
        emit editFailed(i18n::engineError(st.error()));
}

void WorkloadPanel::placeByStrategy()
{
    const auto strategy = static_cast<Strategy>(m_strategy->currentData().toInt());
    auto outcome = Edits::placeByStrategy(*m_document, strategy);
    if (!outcome) {
        emit editFailed(i18n::engineError(outcome.error()));
        return;
    }
    auto list = [](const std::vector<std::string>& names) {
        QStringList out;
        for (const std::string& n : names)
            out << qs(n);
        return out.isEmpty() ? tr("nothing") : out.join(QStringLiteral(", "));
    };
    QString changes;
    for (const Message& change : outcome->programChanges)
        changes += QStringLiteral("<br>• ") + i18n::engineText(change).toHtmlEscaped();
    m_outcome->setText(tr("<b>Replicated</b> on every GPU: %1<br><b>Split</b> across the GPUs: %2<br>%3")
                           .arg(list(outcome->replicated).toHtmlEscaped(), list(outcome->split).toHtmlEscaped(),
                                i18n::engineText(outcome->summary).toHtmlEscaped())
                       + changes);
    emit statusMessage(tr("Placed by %1").arg(m_strategy->currentText()));
}

} // namespace shardlab::gui
