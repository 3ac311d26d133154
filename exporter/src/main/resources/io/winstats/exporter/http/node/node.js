// The node page: reads /api/v1/history/node (or /api/v1/history/pod?uid=... for one pod, given as ?pod=UID) every
// sampling interval and draws it with uPlot. Every name from the runtime is set as text (textContent), never as HTML.
(function () {
  'use strict';

  var podUid = new URLSearchParams(window.location.search).get('pod');
  var status = document.getElementById('status');
  var charts = {};
  var sortKey = 'cpu';
  var latest = null;

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) {
      e.textContent = text;
    }
    if (cls) {
      e.className = cls;
    }
    return e;
  }

  function cores(nano) {
    return nano === null ? null : (nano / 1e9).toFixed(3) + ' cores';
  }

  function bytes(b) {
    if (b === null) {
      return null;
    }
    var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    var i = 0;
    while (Math.abs(b) >= 1024 && i < units.length - 1) {
      b /= 1024;
      i++;
    }
    return (i === 0 ? b.toFixed(0) : b.toFixed(1)) + ' ' + units[i];
  }

  function rate(b) {
    return b === null ? null : bytes(b) + '/s';
  }

  // A cell or span: the value as text, or a marked "absent" where the node cannot give the figure.
  function value(tag, text) {
    if (text === null) {
      var e = el(tag, '—', 'absent');
      e.title = 'not available on this node';
      return e;
    }
    return el(tag, text);
  }

  function sum(a, b) {
    return a === null || b === null ? null : a + b;
  }

  function color(name) {
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  }

  function last(values) {
    return values.length === 0 ? null : values[values.length - 1];
  }

  // One chart: a title, the newest value of each series as text, and a uPlot plot made once and updated after.
  function chart(parent, id, title, series, times, format) {
    var c = charts[id];
    var xs = times.map(function (t) { return t / 1000; });
    var data = [xs].concat(series.map(function (s) { return s.values; }));
    if (!c) {
      var box = el('div', null, 'chart');
      box.id = 'chart-' + id;
      box.appendChild(el('h3', title));
      var now = el('p', null, 'now');
      box.appendChild(now);
      var plot = el('div', null, 'plot');
      box.appendChild(plot);
      parent.appendChild(box);
      var axis = {stroke: color('--muted'), grid: {stroke: color('--line')}, ticks: {stroke: color('--line')}};
      var palette = ['--s1', '--s2', '--s3'];
      var opts = {
        width: Math.max(200, plot.clientWidth || parent.clientWidth || 300),
        height: 180,
        scales: {x: {time: true}, y: {range: function (u, min, max) { return [0, Math.max((max || 0) * 1.1, 1)]; }}},
        axes: [Object.assign({}, axis), Object.assign({}, axis, {size: 95,
          values: function (u, ticks) { return ticks.map(function (v) { return format(v) || ''; }); }})],
        series: [{}].concat(series.map(function (s, i) {
          return {label: s.label, stroke: color(palette[i % palette.length]), width: 1.5,
            value: function (u, v) { return v === null || v === undefined ? '—' : format(v); }};
        }))
      };
      c = {box: box, now: now, plot: plot, uplot: new uPlot(opts, data, plot)};
      charts[id] = c;
    } else {
      c.uplot.setData(data);
    }
    c.now.replaceChildren();
    series.forEach(function (s, i) {
      if (i > 0) {
        c.now.appendChild(document.createTextNode(' · '));
      }
      c.now.appendChild(document.createTextNode(s.label + ': '));
      c.now.appendChild(value('span', formatOrNull(format, last(s.values))));
    });
    return c;
  }

  function formatOrNull(format, v) {
    return v === null || v === undefined ? null : format(v);
  }

  function resize() {
    Object.keys(charts).forEach(function (id) {
      var c = charts[id];
      c.uplot.setSize({width: Math.max(200, c.plot.clientWidth), height: 180});
    });
  }

  function nodeCharts(h) {
    var parent = document.getElementById('node-charts');
    var s = h.series;
    chart(parent, 'cpu', 'CPU', [{label: 'in use', values: s.cpuUsageNanoCores}], h.times, cores);
    var memory = [{label: 'working set', values: s.memoryWorkingSetBytes}];
    if (h.node.platform === 'windows') {
      memory.push({label: 'commit', values: s.memoryCommitBytes});
    }
    chart(parent, 'memory', 'Memory', memory, h.times, bytes);
    chart(parent, 'network', 'Network', [{label: 'received', values: s.networkRxBytesPerSecond},
      {label: 'sent', values: s.networkTxBytesPerSecond}], h.times, rate);
    chart(parent, 'fs', 'Root filesystem', [{label: 'used', values: s.fsUsedBytes},
      {label: 'capacity', values: s.fsCapacityBytes}], h.times, bytes);
  }

  var SORT = {
    cpu: function (p) { return p.cpuUsageNanoCores; },
    memory: function (p) { return p.memoryWorkingSetBytes; },
    network: function (p) { return sum(p.networkRxBytesPerSecond, p.networkTxBytesPerSecond); },
    storage: function (p) { return p.ephemeralStorageUsedBytes !== undefined ? p.ephemeralStorageUsedBytes
      : p.rootfsUsedBytes; }
  };

  // Highest first; a row without the figure last; then by name, so that the order is stable between updates.
  function byKey(key) {
    return function (a, b) {
      var x = SORT[key](a);
      var y = SORT[key](b);
      if (x !== y) {
        if (x === null || x === undefined) {
          return 1;
        }
        if (y === null || y === undefined) {
          return -1;
        }
        return y - x;
      }
      var an = (a.namespace || '') + '/' + a.name;
      var bn = (b.namespace || '') + '/' + b.name;
      return an < bn ? -1 : an > bn ? 1 : 0;
    };
  }

  function podsTable(h) {
    var body = document.querySelector('#pods tbody');
    var rows = [];
    h.pods.slice().sort(byKey(sortKey)).forEach(function (p) {
      var tr = el('tr', null, 'pod');
      tr.dataset.uid = p.uid;
      var name = el('td');
      var link = el('a', p.namespace + '/' + p.name);
      link.href = '/node?pod=' + encodeURIComponent(p.uid);
      name.appendChild(link);
      tr.appendChild(name);
      tr.appendChild(value('td', cores(p.cpuUsageNanoCores)));
      tr.appendChild(value('td', bytes(p.memoryWorkingSetBytes)));
      var rx = rate(p.networkRxBytesPerSecond);
      var tx = rate(p.networkTxBytesPerSecond);
      tr.appendChild(value('td', rx === null && tx === null ? null : '↓ ' + (rx || '—') + ' ↑ ' + (tx || '—')));
      tr.appendChild(value('td', bytes(p.ephemeralStorageUsedBytes)));
      rows.push(tr);
      p.containers.slice().sort(byKey(sortKey)).forEach(function (c) {
        var ctr = el('tr', null, 'container');
        ctr.appendChild(el('td', c.name));
        ctr.appendChild(value('td', cores(c.cpuUsageNanoCores)));
        ctr.appendChild(value('td', bytes(c.memoryWorkingSetBytes)));
        ctr.appendChild(el('td', 'pod\u2019s', 'absent'));
        ctr.appendChild(value('td', bytes(c.rootfsUsedBytes)));
        rows.push(ctr);
      });
    });
    body.replaceChildren.apply(body, rows);
  }

  function showNode(h) {
    document.getElementById('title').textContent = 'Node ' + h.node.name;
    document.title = 'winstats-exporter: ' + h.node.name;
    document.getElementById('node-view').hidden = false;
    nodeCharts(h);
    podsTable(h);
  }

  function showPod(h) {
    var p = h.pod;
    document.getElementById('title').textContent = 'Pod ' + p.namespace + '/' + p.name + (p.present ? '' : ' (gone)');
    document.title = 'winstats-exporter: ' + p.namespace + '/' + p.name;
    document.getElementById('pod-view').hidden = false;
    var labels = document.getElementById('labels');
    var items = [];
    Object.keys(p.labels).sort().forEach(function (k) {
      items.push(el('dt', k));
      items.push(el('dd', p.labels[k]));
    });
    if (items.length === 0) {
      items.push(el('dd', 'none', 'absent'));
    }
    labels.replaceChildren.apply(labels, items);
    var table = document.querySelector('#containers tbody');
    table.replaceChildren.apply(table, h.containers.map(function (c) {
      var tr = el('tr');
      tr.appendChild(el('td', c.name));
      tr.appendChild(value('td', c.image));
      tr.appendChild(value('td', cores(c.cpuLimitNanoCores)));
      tr.appendChild(value('td', bytes(c.memoryLimitBytes)));
      return tr;
    }));
    var parent = document.getElementById('pod-charts');
    var s = h.series;
    chart(parent, 'pod-cpu', 'Pod CPU', [{label: 'in use', values: s.cpuUsageNanoCores}], h.times, cores);
    chart(parent, 'pod-memory', 'Pod memory', [{label: 'working set', values: s.memoryWorkingSetBytes}], h.times,
      bytes);
    chart(parent, 'pod-network', 'Pod network', [{label: 'received', values: s.networkRxBytesPerSecond},
      {label: 'sent', values: s.networkTxBytesPerSecond}], h.times, rate);
    chart(parent, 'pod-storage', 'Pod ephemeral storage', [{label: 'used', values: s.ephemeralStorageUsedBytes}],
      h.times, bytes);
    h.containers.forEach(function (c, i) {
      var cs = c.series;
      chart(parent, 'c' + i + '-cpu', c.name + ': CPU', [{label: 'in use', values: cs.cpuUsageNanoCores}], h.times,
        cores);
      chart(parent, 'c' + i + '-memory', c.name + ': memory', [{label: 'working set', values: cs.memoryWorkingSetBytes}],
        h.times, bytes);
      chart(parent, 'c' + i + '-rootfs', c.name + ': writable layer', [{label: 'used', values: cs.rootfsUsedBytes}],
        h.times, bytes);
    });
  }

  function schedule(millis) {
    window.setTimeout(update, Math.max(1000, millis));
  }

  function update() {
    var url = podUid === null ? '/api/v1/history/node' : '/api/v1/history/pod?uid=' + encodeURIComponent(podUid);
    fetch(url, {credentials: 'same-origin', cache: 'no-store', headers: {Accept: 'application/json'}})
      .then(function (r) {
        if (!r.ok) {
          return r.text().then(function (t) { throw new Error(r.status + ': ' + t.trim()); });
        }
        return r.json();
      })
      .then(function (h) {
        latest = h;
        if (podUid === null) {
          showNode(h);
        } else {
          showPod(h);
        }
        // The newest sample the page shows (ms since the epoch), for scripts that drive the page.
        document.body.dataset.newestSample = h.times.length ? String(h.times[h.times.length - 1]) : '';
        status.textContent = 'Updated ' + new Date().toLocaleTimeString() + '; last ' + h.times.length + ' of ' +
          h.samples + ' samples, every ' + (h.intervalMillis / 1000) + ' s.';
        schedule(h.intervalMillis);
      })
      .catch(function (e) {
        status.textContent = 'Could not read ' + url + ': ' + e.message + '. Retrying.';
        schedule(latest === null ? 2000 : latest.intervalMillis);
      });
  }

  document.querySelectorAll('#pods th button').forEach(function (b) {
    b.setAttribute('aria-pressed', String(b.dataset.sort === sortKey));
    b.addEventListener('click', function () {
      sortKey = b.dataset.sort;
      document.querySelectorAll('#pods th button').forEach(function (o) {
        o.setAttribute('aria-pressed', String(o === b));
      });
      if (latest !== null && podUid === null) {
        podsTable(latest);
      }
    });
  });
  window.addEventListener('resize', resize);
  update();
})();
