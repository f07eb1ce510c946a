// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The driver's events: iwcm_event_handler() (struct iw_cm_id's
 * event_handler) copies each into an item of the id and queues it; the
 * id's work delivers them one at a time, in the order they came, in
 * process context, so that the consumer's handler may sleep and call
 * back into iw_cm.
 *
 * What each event does in each state (anything else is refused: counted,
 * traced, the consumer hears nothing):
 *
 *   CONNECT_REQUEST  LISTEN       a new id in CONN_RECV goes to the handler
 *   CONNECT_REPLY    CONN_SENT    status 0: ESTABLISHED, else IDLE (QP freed)
 *   ESTABLISHED      CONN_RECV    (accepted) -> ESTABLISHED
 *   DISCONNECT       ESTABLISHED  -> CLOSING, not delivered (as upstream)
 *                    CLOSING      nothing
 *   CLOSE            ESTABLISHED, CLOSING -> IDLE, QP freed, delivered
 *                    CONN_SENT    -> IDLE, delivered as a CONNECT_REPLY
 *                                 with -ECONNRESET (the connect failed)
 *                    CONN_RECV    (accepted) -> IDLE, delivered
 *
 * Memory: an id keeps items ready (IWCM_ACTIVE_WORKS, IWCM_PASSIVE_WORKS,
 * the backlog of a listener) plus one reserved for CLOSE; only past those
 * does an event need an atomic allocation, and only such an event can
 * fail with -ENOMEM.  A CLOSE is never lost.
 *
 * A CONNECT_REQUEST the driver handed over always gets its answer: it is
 * queued even on an id being destroyed (until the destroy told the
 * driver, which reports nothing more after that), and a request iw_cm
 * does not deliver (the listener is going, its new id cannot be made,
 * the handler refuses it) is rejected at the driver
 * (iwcm_conn_request()), which then lets go of the connection (siw: its
 * endpoint).
 */
#include <linux/sched.h>
#include <linux/string.h>

#include "iwcm.h"
#include "iwcm_trace.h"

/**
 * iwcm_event_handler - queue an event of the driver
 * @cm_id: the id the event is for
 * @event: the event; copied, private data included
 *
 * Context: any (hard IRQ included); takes the id's lock.
 * Return: 0 when queued (or dropped because the id is being destroyed;
 * a CONNECT_REQUEST is queued all the same, to be rejected, until the
 * destroy told the driver: iw_destroy_listen returned), -EINVAL
 * for an event type iw_cm does not know, a CONNECT_REQUEST with a
 * status, or private data without a pointer, -ENOMEM when no item was
 * left (the driver refuses the connection request).
 */
int iwcm_event_handler(struct iw_cm_id *cm_id, struct iw_cm_event *event)
{
	struct iwcm_id_private *priv = to_iwcm(cm_id);
	struct iwcm_work *w;
	unsigned long flags;
	int ret = 0;

	if (event->event < IW_CM_EVENT_CONNECT_REQUEST ||
	    event->event > IW_CM_EVENT_CLOSE ||
	    (event->event == IW_CM_EVENT_CONNECT_REQUEST && event->status) ||
	    (event->private_data_len && !event->private_data)) {
		ret = -EINVAL;
		goto out;
	}

	spin_lock_irqsave(&priv->lock, flags);
	/*
	 * A request the driver reports while the destroy runs still goes
	 * in: its delivery rejects it at the driver, which holds its
	 * connection until it hears an answer.
	 */
	if (test_bit(IWCM_F_DROP_EVENTS, &priv->flags) &&
	    (event->event != IW_CM_EVENT_CONNECT_REQUEST ||
	     test_bit(IWCM_F_TORN_DOWN, &priv->flags))) {
		spin_unlock_irqrestore(&priv->lock, flags);
		trace_iwcm_event_done(cm_id, event->event, event->status,
				      priv->state, IWCM_EV_DROPPED, 0);
		goto out;
	}
	w = iwcm_work_take(priv, event->event == IW_CM_EVENT_CLOSE);
	if (!w) {
		spin_unlock_irqrestore(&priv->lock, flags);
		ret = -ENOMEM;
		goto out;
	}
	w->event = *event;
	if (event->private_data_len) {
		memcpy(w->pdata, event->private_data, event->private_data_len);
		w->event.private_data = w->pdata;
	} else {
		w->event.private_data = NULL;
	}
	list_add_tail(&w->list, &priv->events);
	if (!priv->delivering) {
		priv->delivering = true;
		iwcm_id_get(priv);
		queue_work(iwcm_wq, &priv->work);
	}
	spin_unlock_irqrestore(&priv->lock, flags);
out:
	trace_iwcm_event_queue(cm_id, event, ret);
	return ret;
}

/* Count and trace an event the id's state does not take. */
static int iwcm_refuse(struct iwcm_id_private *priv, struct iw_cm_event *ev,
		       enum iw_cm_state state)
{
	atomic_inc(&priv->refused);
	ibdev_dbg(priv->id.device, "iw_cm: event %d refused in state %s\n",
		  ev->event, iwcm_state_name(state));
	return IWCM_EV_REFUSED;
}

static int iwcm_call_handler(struct iwcm_id_private *priv,
			     struct iw_cm_event *ev, int *ret)
{
	WRITE_ONCE(priv->deliverer, current);
	*ret = priv->id.cm_handler(&priv->id, ev);
	WRITE_ONCE(priv->deliverer, NULL);
	return IWCM_EV_DELIVERED;
}

static int iwcm_on_reply(struct iwcm_id_private *priv, struct iw_cm_event *ev,
			 int *ret)
{
	struct ib_qp *qp = NULL;
	unsigned long flags;
	int how;

	spin_lock_irqsave(&priv->lock, flags);
	if (priv->state != IW_CM_STATE_CONN_SENT) {
		how = iwcm_refuse(priv, ev, priv->state);
		spin_unlock_irqrestore(&priv->lock, flags);
		return how;
	}
	if (!ev->status) {
		/* The wire's addresses are the driver's; the consumer's ours. */
		priv->id.m_local_addr = ev->local_addr;
		priv->id.m_remote_addr = ev->remote_addr;
		ev->local_addr = priv->id.local_addr;
		ev->remote_addr = priv->id.remote_addr;
		iwcm_set_state(priv, IW_CM_STATE_ESTABLISHED);
	} else {
		qp = priv->qp;
		priv->qp = NULL;
		iwcm_set_state(priv, IW_CM_STATE_IDLE);
	}
	spin_unlock_irqrestore(&priv->lock, flags);
	if (qp)
		iwcm_qp_put(priv, qp);
	/* A disconnect from the handler must not wait for itself. */
	clear_bit(IWCM_F_CONNECT_WAIT, &priv->flags);
	how = iwcm_call_handler(priv, ev, ret);
	wake_up_all(&priv->wait);
	return how;
}

static int iwcm_on_established(struct iwcm_id_private *priv,
			       struct iw_cm_event *ev, int *ret)
{
	unsigned long flags;
	int how;

	spin_lock_irqsave(&priv->lock, flags);
	if (priv->state != IW_CM_STATE_CONN_RECV ||
	    !test_bit(IWCM_F_CONNECT_WAIT, &priv->flags)) {
		how = iwcm_refuse(priv, ev, priv->state);
		spin_unlock_irqrestore(&priv->lock, flags);
		return how;
	}
	iwcm_set_state(priv, IW_CM_STATE_ESTABLISHED);
	spin_unlock_irqrestore(&priv->lock, flags);
	clear_bit(IWCM_F_CONNECT_WAIT, &priv->flags);
	how = iwcm_call_handler(priv, ev, ret);
	wake_up_all(&priv->wait);
	return how;
}

static int iwcm_on_disconnect(struct iwcm_id_private *priv,
			      struct iw_cm_event *ev)
{
	unsigned long flags;
	int how = IWCM_EV_CONSUMED;

	spin_lock_irqsave(&priv->lock, flags);
	if (priv->state == IW_CM_STATE_ESTABLISHED)
		iwcm_set_state(priv, IW_CM_STATE_CLOSING);
	else if (priv->state != IW_CM_STATE_CLOSING)
		how = iwcm_refuse(priv, ev, priv->state);
	spin_unlock_irqrestore(&priv->lock, flags);
	return how;
}

static int iwcm_on_close(struct iwcm_id_private *priv, struct iw_cm_event *ev,
			 int *ret)
{
	struct ib_qp *qp;
	unsigned long flags;
	bool accepting;
	int how;

	spin_lock_irqsave(&priv->lock, flags);
	accepting = test_bit(IWCM_F_CONNECT_WAIT, &priv->flags);
	switch (priv->state) {
	case IW_CM_STATE_CONN_SENT:
		/* The connection failed before any reply: say so. */
		ev->event = IW_CM_EVENT_CONNECT_REPLY;
		ev->status = ev->status ?: -ECONNRESET;
		ev->private_data_len = 0;
		ev->private_data = NULL;
		break;
	case IW_CM_STATE_CONN_RECV:
		if (accepting)
			break;
		fallthrough;
	case IW_CM_STATE_IDLE:
	case IW_CM_STATE_LISTEN:
	case IW_CM_STATE_DESTROYING:
		how = iwcm_refuse(priv, ev, priv->state);
		spin_unlock_irqrestore(&priv->lock, flags);
		return how;
	case IW_CM_STATE_ESTABLISHED:
	case IW_CM_STATE_CLOSING:
		break;
	}
	qp = priv->qp;
	priv->qp = NULL;
	iwcm_set_state(priv, IW_CM_STATE_IDLE);
	spin_unlock_irqrestore(&priv->lock, flags);
	if (qp)
		iwcm_qp_put(priv, qp);
	clear_bit(IWCM_F_CONNECT_WAIT, &priv->flags);
	how = iwcm_call_handler(priv, ev, ret);
	wake_up_all(&priv->wait);
	return how;
}

static int iwcm_on_request(struct iwcm_id_private *priv,
			   struct iw_cm_event *ev)
{
	enum iw_cm_state state = READ_ONCE(priv->state);

	/*
	 * Not listening: the driver's new connection still wants an
	 * answer, which iwcm_conn_request() gives (a reject).
	 */
	WRITE_ONCE(priv->deliverer, current);	/* the handler runs for it */
	iwcm_conn_request(priv, ev);
	WRITE_ONCE(priv->deliverer, NULL);
	if (state != IW_CM_STATE_LISTEN)
		return iwcm_refuse(priv, ev, state);
	return IWCM_EV_CONSUMED;
}

/* Run one event; returns the consumer handler's verdict. */
static int iwcm_process(struct iwcm_id_private *priv, struct iw_cm_event *ev)
{
	int event = ev->event, status = ev->status;
	int ret = 0, how;

	switch (ev->event) {
	case IW_CM_EVENT_CONNECT_REQUEST:
		how = iwcm_on_request(priv, ev);
		break;
	case IW_CM_EVENT_CONNECT_REPLY:
		how = iwcm_on_reply(priv, ev, &ret);
		break;
	case IW_CM_EVENT_ESTABLISHED:
		how = iwcm_on_established(priv, ev, &ret);
		break;
	case IW_CM_EVENT_DISCONNECT:
		how = iwcm_on_disconnect(priv, ev);
		break;
	case IW_CM_EVENT_CLOSE:
	default:
		how = iwcm_on_close(priv, ev, &ret);
		break;
	}
	trace_iwcm_event_done(&priv->id, event, status, READ_ONCE(priv->state),
			      how, ret);
	return ret;
}

/**
 * iwcm_deliver_work - deliver an id's queued events, oldest first
 * @work: iwcm_id_private.work
 *
 * Holds the reference iwcm_event_handler() took when it queued the
 * work.  A handler returning non-zero destroys the id: the consumer's
 * reference is given back here, and the events still queued are
 * dropped, except a listener's connection requests, which are
 * rejected.
 */
void iwcm_deliver_work(struct work_struct *work)
{
	struct iwcm_id_private *priv =
		container_of(work, struct iwcm_id_private, work);
	struct iwcm_work *w;
	unsigned long flags;
	int ret;

	for (;;) {
		spin_lock_irqsave(&priv->lock, flags);
		w = list_first_entry_or_null(&priv->events, struct iwcm_work,
					     list);
		if (!w) {
			priv->delivering = false;
			spin_unlock_irqrestore(&priv->lock, flags);
			break;
		}
		list_del(&w->list);
		spin_unlock_irqrestore(&priv->lock, flags);

		if (test_bit(IWCM_F_DROP_EVENTS, &priv->flags) &&
		    w->event.event == IW_CM_EVENT_CONNECT_REQUEST) {
			/*
			 * The driver handed the request over before the
			 * listener went: it still gets its answer, a reject
			 * (iwcm_conn_request() sees the listener dropping).
			 */
			iwcm_conn_request(priv, &w->event);
			ret = 0;
		} else if (test_bit(IWCM_F_DROP_EVENTS, &priv->flags)) {
			trace_iwcm_event_done(&priv->id, w->event.event,
					      w->event.status,
					      READ_ONCE(priv->state),
					      IWCM_EV_DROPPED, 0);
			ret = 0;
		} else {
			ret = iwcm_process(priv, &w->event);
		}

		spin_lock_irqsave(&priv->lock, flags);
		iwcm_work_recycle(priv, w);
		spin_unlock_irqrestore(&priv->lock, flags);

		if (ret && !test_and_set_bit(IWCM_F_DESTROYED, &priv->flags)) {
			iwcm_teardown(priv);
			/* Ours holds it alive until the loop ends. */
			iwcm_id_put(priv);
		}
		/* the driver may keep the queue full: let others run */
		cond_resched();
	}
	iwcm_id_put(priv);
}
