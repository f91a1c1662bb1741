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
