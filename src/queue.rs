//! The explicit bounded FIFO that connects components. Pushing into a full queue is a
//! bug in the caller, which must check `has_room` first.

use std::collections::VecDeque;

#[derive(Debug, Clone)]
pub struct BoundedQueue<T> {
    items: VecDeque<T>,
    capacity: usize,
}

impl<T> BoundedQueue<T> {
    pub fn new(capacity: u32) -> Self {
        Self { items: VecDeque::with_capacity(capacity.min(64) as usize), capacity: capacity as usize }
    }

    #[inline]
    pub fn has_room(&self, n: usize) -> bool {
        self.items.len() + n <= self.capacity
    }

    #[inline]
    pub fn push(&mut self, item: T) {
        debug_assert!(self.has_room(1), "push into a full bounded queue");
        self.items.push_back(item);
    }

    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        self.items.pop_front()
    }

    #[inline]
    pub fn front(&self) -> Option<&T> {
        self.items.front()
    }

    pub fn front_mut(&mut self) -> Option<&mut T> {
        self.items.front_mut()
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    pub fn iter_mut(&mut self) -> impl DoubleEndedIterator<Item = &mut T> {
        self.items.iter_mut()
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.items.iter()
    }
}

/// A fixed-latency pipeline: an item may leave `latency` cycles after it entered, in order.
/// With one stage per cycle of latency it holds at most `latency + 1` items, so a stream of
/// one item per cycle never fills it; it fills only when its head is held at the exit.
#[derive(Debug, Clone)]
pub struct DelayLine<T> {
    latency: u64,
    items: BoundedQueue<(u64, T)>,
}

impl<T> DelayLine<T> {
    pub fn new(latency: u32) -> Self {
        Self { latency: latency as u64, items: BoundedQueue::new(latency.saturating_add(1)) }
    }

    #[inline]
    pub fn has_room(&self) -> bool {
        self.items.has_room(1)
    }

    pub fn latency(&self) -> u64 {
        self.latency
    }

    /// Enters `item` at cycle `now`; the caller checks `has_room` first.
    #[inline]
    pub fn push(&mut self, now: u64, item: T) {
        self.items.push((now + self.latency, item));
    }

    /// The head, once its latency has passed at cycle `now`.
    #[inline]
    pub fn ready(&self, now: u64) -> Option<&T> {
        self.items.front().filter(|(t, _)| *t <= now).map(|(_, item)| item)
    }

    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        self.items.pop().map(|(_, item)| item)
    }

    /// The cycle the head may leave.
    pub fn next_ready(&self) -> Option<u64> {
        self.items.front().map(|(t, _)| *t)
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::DelayLine;

    #[test]
    fn an_item_leaves_a_delay_line_after_its_latency_and_one_per_cycle_never_fills_it() {
        let mut line = DelayLine::new(3);
        line.push(5, 'a');
        assert_eq!((line.ready(7), line.ready(8), line.next_ready()), (None, Some(&'a'), Some(8)));
        let mut line = DelayLine::new(3);
        for now in 0..100u64 {
            if line.ready(now).is_some() {
                assert_eq!(line.pop(), Some(now - 3));
            }
            assert!(line.has_room(), "cycle {now}");
            line.push(now, now);
        }
    }
}
